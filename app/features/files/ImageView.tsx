import { useState } from "react";
import { LazyModal as Modal } from "~/ui/LazyModal";

/** An image in a message; a click (or Enter) opens it whole in a viewer that Esc closes. */
export function ImageView({ url, name }: { url: string; name: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="attachment-image-button" onClick={() => setOpen(true)} aria-label={`View ${name}`}>
        <img src={url} alt={name} className="attachment-image" />
      </button>
      {open && (
        <Modal title={name} onClose={() => setOpen(false)}>
          <img src={url} alt={name} className="image-viewer-image" />
          <div className="modal-actions">
            <button type="button" className="btn" onClick={() => setOpen(false)}>
              Close
            </button>
          </div>
        </Modal>
      )}
    </>
  );
}
