import { useEffect, useState } from "react";
import { formatKb } from "~/chat/attachments";
import type { DecryptedAttachment, DecryptedPreview } from "~/chat/files.client";

function useObjectUrl(load: (() => Promise<string>) | null) {
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!load) return;
    let live = true;
    load().then(
      (u) => live && setUrl(u),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
    // The loader identity changes every render; the attachment it stands for does not.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [load === null]);
  return { url, failed };
}

interface AttachmentProps {
  attachment: DecryptedAttachment;
  resolveUrl: (a: DecryptedAttachment) => Promise<string>;
  onDownload: (a: DecryptedAttachment) => void;
}

/** An attachment after decryption: images inline, audio as a player, other files as a download. */
export function AttachmentView({ attachment, resolveUrl, onDownload }: AttachmentProps) {
  const inline = attachment.kind !== "file";
  const { url, failed } = useObjectUrl(inline ? () => resolveUrl(attachment) : null);
  return (
    <div className={`attachment attachment-${attachment.kind}`}>
      {attachment.kind === "image" && url && <img src={url} alt={attachment.name} className="attachment-image" />}
      {attachment.kind === "audio" && url && <audio controls src={url} aria-label={`Audio message ${attachment.name}`} />}
      {inline && !url && !failed && <span className="attachment-loading">Decrypting {attachment.name}...</span>}
      {failed && <span className="attachment-loading">This file could not be decrypted.</span>}
      <button type="button" className="attachment-download" onClick={() => onDownload(attachment)} aria-label={`Download ${attachment.name}`}>
        <span className="attachment-name">{attachment.name}</span>
        <span className="attachment-size">{formatKb(attachment.size)}</span>
      </button>
    </div>
  );
}

/** A link preview; its image was fetched by the server and is decrypted here. */
export function PreviewCard({ preview, resolveImage }: { preview: DecryptedPreview; resolveImage: (p: DecryptedPreview) => Promise<string> }) {
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
