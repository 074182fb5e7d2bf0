import { t } from '@lingui/core/macro';

/** A plain sentence for what stopped a download (the disk being full is the likely one). */
export function downloadErrorMessage(error: unknown): string {
  if (error instanceof DOMException && error.name === 'QuotaExceededError') {
    return t`There is not enough free space on this device for the ZIP. Free some space, or select fewer outputs, and try again.`;
  }
  return error instanceof Error && error.message ? error.message : String(error);
}
