import { Trans } from '@lingui/react/macro';

/**
 * A batch task's place as a screen reader says it ("Batch: task 2 of 4"), beside the short form the eye
 * reads (the History's badge, the Gallery tile's corner), which is hidden from it.
 */
export function BatchPlaceSpoken({ batchIndex, batchSize }: { batchIndex?: number; batchSize?: number }) {
  return (
    <span className="sr-only">
      <Trans>
        Batch: task {batchIndex} of {batchSize}
      </Trans>
    </span>
  );
}
