'use client';
/** Photos from files: the way in without a camera, or beside it. */

export function PhotoUploadField({
  cameraFailed,
  disabled,
  checking,
  onFiles,
}: {
  cameraFailed: boolean;
  disabled: boolean;
  /** What the browser check is doing now, if anything. */
  checking: string;
  onFiles: (files: FileList | null) => void;
}) {
  return (
    <div className="field">
      <label htmlFor="photo-upload">{cameraFailed ? 'Upload photos (JPEG or PNG)' : 'Or upload photos (JPEG or PNG)'}</label>
      <input
        id="photo-upload"
        data-testid="photo-upload"
        type="file"
        accept="image/jpeg,image/png"
        multiple
        disabled={disabled}
        onChange={(e) => {
          onFiles(e.target.files);
          e.target.value = '';
        }}
      />
      <p className="hint" aria-live="polite" data-testid="photo-checking">
        {checking || 'Each photo is checked for a usable face before it is added.'}
      </p>
    </div>
  );
}
