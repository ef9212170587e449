import { useState } from "react";
import { LazyModal as Modal } from "~/ui/LazyModal";

/** An image in a message; a click (or Enter) opens it whole in a viewer that Esc closes; one that will not show says so. */
export function ImageView({ url, name }: { url: string; name: string }) {
  const [open, setOpen] = useState(false);
  // (a file sent as a picture that is none: said, its download stays beside it)
  const [broken, setBroken] = useState(false);
  if (broken) return <span className="attachment-loading">This picture cannot be shown. Download it to open it.</span>;
  return (
    <>
      <button type="button" className="attachment-image-button" onClick={() => setOpen(true)} aria-label={`View ${name}`}>
        <img src={url} alt={name} className="attachment-image" onError={() => setBroken(true)} />
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
