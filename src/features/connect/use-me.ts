import { useQuery } from '@tanstack/react-query';
import type { Me } from '../../../contract/me';
import { useApi } from '../../api/api-context';
import { meQueries } from '../../api/queries/me-queries';

/** GET /me for the current key, kept fresh (balance and today's spend change as tasks are paid). */
export function useMe(initial: Me): Me {
  const { client, connectionId } = useApi();
  const { data } = useQuery({
    ...meQueries.detail(client, connectionId),
    initialData: initial,
    refetchInterval: 60_000,
  });
  return data;
}
