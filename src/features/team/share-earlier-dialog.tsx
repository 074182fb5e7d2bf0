import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { formatCount } from '../../lib/format';

// Turning the team space on shares what this member does from then on; what was already on this device
// goes only when the member says so, knowing how much will go.

export function ShareEarlierDialog({
  open,
  taskCount,
  onShare,
  onNotNow,
}: {
  open: boolean;
  taskCount: number;
  onShare: () => void;
  onNotNow: () => void;
}) {
  const tasks = `${formatCount(taskCount)} ${taskCount === 1 ? 'task' : 'tasks'}`;
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        if (!o) onNotNow();
      }}
      title="Share what is already here?"
      description={`${tasks} made before you turned the team space on ${taskCount === 1 ? 'is' : 'are'} on this device only. Your new tasks are shared from now on.`}
    >
      <div className="flex flex-wrap justify-end gap-2">
        <Button onClick={onNotNow}>Not now</Button>
        <Button variant="primary" onClick={onShare}>
          Share {tasks}
        </Button>
      </div>
    </Dialog>
  );
}
