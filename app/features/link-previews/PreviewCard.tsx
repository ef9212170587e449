import { useObjectUrl } from "~/lib/useObjectUrl";
import type { DecryptedPreview } from "~/conversation/link-previews/decrypt";

/** A link preview; its image was fetched by the server and is decrypted here. */
export function PreviewCard({
  preview,
  resolveImage,
}: {
  preview: DecryptedPreview;
  resolveImage: (p: DecryptedPreview) => Promise<string>;
}) {
  const { url } = useObjectUrl(preview.hasImage ? () => resolveImage(preview) : null);
  return (
    <a className="link-preview" href={preview.url} target="_blank" rel="noopener noreferrer">
      {url && <img src={url} alt="" className="link-preview-image" />}
      <span className="link-preview-text">
        <strong className="link-preview-title">{preview.title}</strong>
        {preview.description && <span className="link-preview-description">{preview.description}</span>}
        <span className="link-preview-url">{preview.url}</span>
      </span>
    </a>
  );
}
