import { useEffect, useId, useState } from "react";
import { FormActions } from "~/ui/Form";
import { Modal } from "~/ui/Modal";
import { attachmentKind, formatKb } from "~/conversation/files/attachments";

/** The longest caption (the message's own limit). */
const MAX_CAPTION = 16000;

/**
 * What a picked file will send (its name, size and, for a picture, a preview) with an optional
 * caption. Nothing is sent until "Send file"; Cancel, Esc and the backdrop send nothing (for this file:
 * files picked with it come next).
 */
export function SendFileDialog({
  file,
  more = 0,
  onSend,
  onCancel,
}: {
  file: File;
  /** Files picked with this one, offered after it. */
  more?: number;
  onSend: (caption: string) => void;
  onCancel: () => void;
}) {
  const [caption, setCaption] = useState("");
  const [preview, setPreview] = useState<string | null>(null);
  const captionId = useId();
  const image = attachmentKind(file.type) === "image";

  useEffect(() => {
    if (!image) return;
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file, image]);

  const send = () => onSend(caption.trim());

  return (
    <Modal title="Send a file" onClose={onCancel}>
      <form
        className="send-file"
        onSubmit={(e) => {
          e.preventDefault();
          send();
        }}
      >
        {image && preview && <img className="send-file-preview" src={preview} alt={`Preview of ${file.name}`} />}
        <p className="send-file-name">
          <strong>{file.name}</strong> <span className="hint">{formatKb(file.size)}</span>
        </p>
        {more > 0 && <p className="hint">{more === 1 ? "1 more file comes after this one." : `${more} more files come after this one.`}</p>}
        <label htmlFor={captionId}>Caption (optional)</label>
        <textarea
          id={captionId}
          rows={2}
          maxLength={MAX_CAPTION}
          value={caption}
          onChange={(e) => setCaption(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              send();
            }
          }}
        />
        <FormActions busy={false} submitLabel="Send file" onCancel={onCancel} />
      </form>
    </Modal>
  );
}
