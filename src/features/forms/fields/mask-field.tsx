import { Trans, useLingui } from '@lingui/react/macro';
import { lazy, Suspense, useState } from 'react';
import { Brush } from 'lucide-react';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { FieldGroup } from '../../../components/field-group';
import { Spinner } from '../../../components/spinner';
import { MediaInput } from '../media/media-input';
import type { MediaUpload } from '../media/use-media-upload';
import type { ParamFieldProps } from './field-props';
import { paramDescription } from './param-label';
import { useMediaField } from './use-media-field';

// The painter (canvas, pointer handling) loads on demand: most forms have no mask.
const MaskPainter = lazy(() => import('../media/mask/mask-painter'));

/**
 * mask_url (product-notes §3): a mask painted over the image chosen for the edit, exported as a PNG of that
 * image's size and uploaded like any file; or a mask file dropped, browsed or picked from the library
 * (the keyboard-only path).
 */
export function MaskField(props: ParamFieldProps) {
  const { def, disabled, sourceImage } = props;
  const { t } = useLingui();
  const field = useMediaField(props);
  const { label } = field;
  const labelText = label.text;
  const [painting, setPainting] = useState(false);

  const paintButton = (upload: MediaUpload) => (
    <>
      <Button
        size="sm"
        disabled={disabled || !sourceImage || !upload.available}
        onClick={() => setPainting(true)}
        title={sourceImage ? undefined : t`Choose the image to edit first`}
      >
        <Brush className="size-3.5" aria-hidden="true" />
        <Trans>Paint mask</Trans>
      </Button>
      <Dialog open={painting} onOpenChange={setPainting} wide title={t`Paint ${labelText}`}>
        {sourceImage && (
          <Suspense fallback={<Spinner label={t`Loading the painter`} />}>
            <MaskPainter
              sourceUrl={sourceImage}
              label={label.text}
              busy={upload.state.phase === 'uploading'}
              onCancel={() => setPainting(false)}
              onDone={(file) => {
                setPainting(false);
                void upload.start(file);
              }}
            />
          </Suspense>
        )}
      </Dialog>
    </>
  );

  return (
    <FieldGroup
      {...field.frame}
      description={
        <>
          {paramDescription(def)}
          {!sourceImage && (
            <span className="block">
              <Trans>Choose the image to edit first to paint over it, or upload a mask file.</Trans>
            </span>
          )}
        </>
      }
    >
      {(control) => <MediaInput {...field.input(control)} actions={paintButton} />}
    </FieldGroup>
  );
}
