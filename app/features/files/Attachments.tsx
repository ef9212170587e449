import { useObjectUrl } from "~/lib/useObjectUrl";
import { lazyPart } from "~/ui/lazyPart";
import { ImageView } from "~/features/files/ImageView";
import { formatKb, shownName } from "~/conversation/files/attachments";
import type { DecryptedAttachment } from "~/conversation/files/decrypt";

// The player loads with the first voice message shown.
const AudioPlayer = lazyPart(() => import("~/features/files/AudioPlayer").then((m) => m.AudioPlayer));

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
      {attachment.kind === "image" && url && <ImageView url={url} name={attachment.name} />}
      {attachment.kind === "audio" && url && <AudioPlayer src={url} name={attachment.name} />}
      {inline && !url && !failed && <span className="attachment-loading">Decrypting {attachment.name}...</span>}
      {failed && <span className="attachment-loading">This file could not be decrypted.</span>}
      <button type="button" className="attachment-download" onClick={() => onDownload(attachment)} title={attachment.name}>
        <span className="visually-hidden">Download </span>
        <span className="attachment-name">{shownName(attachment)}</span>{" "}
        <span className="attachment-size">{formatKb(attachment.size)}</span>
      </button>
    </div>
  );
}
