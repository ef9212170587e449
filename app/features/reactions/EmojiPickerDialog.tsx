import { EmojiPicker } from "frimousse";
import { Modal } from "~/ui/Modal";

/**
 * "Pick a reaction": every emoji, searchable (frimousse, with the Emojibase data this server serves
 * at /emoji, built from the emojibase-data package: nothing is fetched from elsewhere). Loaded only
 * when first opened; the chosen emoji is sent encrypted like any reaction.
 */
const oneBased = (index: unknown) => (typeof index === "number" ? index + 1 : undefined);

export default function EmojiPickerDialog({ onPick, onClose }: { onPick: (emoji: string) => void; onClose: () => void }) {
  return (
    <Modal title="Pick a reaction" onClose={onClose}>
      <EmojiPicker.Root
        className="emoji-picker"
        emojibaseUrl="/emoji"
        columns={8}
        onEmojiSelect={({ emoji }) => {
          onClose();
          onPick(emoji);
        }}
      >
        <EmojiPicker.Search className="emoji-search" aria-label="Search emoji" placeholder="Search emoji" />
        <EmojiPicker.Viewport className="emoji-viewport" tabIndex={0} aria-label="Emoji">
          <EmojiPicker.Loading className="hint">Loading emoji...</EmojiPicker.Loading>
          <EmojiPicker.Empty className="hint">No emoji found.</EmojiPicker.Empty>
          <EmojiPicker.List
            className="emoji-list"
            components={{
              CategoryHeader: ({ category, ...props }) => (
                <div className="emoji-category" {...props}>
                  {category.label}
                </div>
              ),
              // (ARIA's row and column indexes count from 1; the library's from 0)
              Row: ({ children, ...props }) => (
                <div {...props} aria-rowindex={oneBased(props["aria-rowindex"])}>
                  {children}
                </div>
              ),
              Emoji: ({ emoji, ...props }) => (
                <button type="button" className="emoji-choice" {...props} role="gridcell" aria-colindex={oneBased(props["aria-colindex"])}>
                  {/* named by its label; the glyph is drawn by CSS (no text to read twice) */}
                  <span className="emoji-glyph" data-emoji={emoji.emoji} aria-hidden="true" />
                </button>
              ),
            }}
          />
        </EmojiPicker.Viewport>
      </EmojiPicker.Root>
      <div className="modal-actions">
        <button type="button" className="btn" onClick={onClose}>
          Cancel
        </button>
      </div>
    </Modal>
  );
}
