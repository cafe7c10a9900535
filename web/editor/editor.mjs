// The page's editor: CodeMirror 6, bundled into dist/editor.js by web/build.sh. It lays out only
// the lines in view, so that a text of megabytes types as fast as a short one: a browser's
// textarea lays out all of it, which in Chromium took 2.2 s for 5 MB and 250 to 300 ms a
// keystroke. app.js uses it only through the object `createEditor` gives back.
import { EditorState, StateEffect, StateField } from '@codemirror/state';
import { Decoration, EditorView, keymap, placeholder } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap, isolateHistory, redo, undo } from '@codemirror/commands';

// The page's marks (problems underlined, the move shown highlighted): set whole, for the lines
// in view, and moved with the text by an edit until they are set again.
const setMarks = StateEffect.define();
const marks = StateField.define({
  create: () => Decoration.none,
  update(deco, tr) {
    let next = deco.map(tr.changes);
    for (const e of tr.effects) if (e.is(setMarks)) next = e.value;
    return next;
  },
  provide: (field) => EditorView.decorations.from(field),
});

// An editor in `parent`, its root element given the id `id`. The page is told, through `on`:
// `change(update)` after every edit (`update.pasted`: whether it was a paste or a drop;
// `update.changes`, what changed, as a CodeMirror ChangeSet),
// `viewport()` when other lines come into view, `caret(offset)` when the caret moves without an
// edit, `paste(text)` before a paste (true refuses it). Files dropped on it are not inserted: the
// page opens them. Offsets are UTF-16 code units of the text, as JavaScript counts them;
// the text's line breaks are `\n` (a `\r\n` pasted in becomes `\n`, as a textarea makes it).
export function createEditor(parent, { id, label, hint, on }) {
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: '',
      extensions: [
        history(),
        // Ctrl+Shift+Z redoes on every system too, as in most editors (CodeMirror: Linux only).
        keymap.of([
          { key: 'Mod-Shift-z', run: redo, preventDefault: true },
          ...defaultKeymap,
          ...historyKeymap,
        ]),
        placeholder(hint),
        marks,
        EditorView.editorAttributes.of({ id }),
        EditorView.contentAttributes.of({ 'aria-label': label, spellcheck: 'false', autocorrect: 'off', autocapitalize: 'off' }),
        EditorView.domEventHandlers({
          paste(e) {
            return on.paste?.(e.clipboardData?.getData('text/plain') ?? '') === true;
          },
          // Files dropped are the page's to open (its own listener, on the editor's parent):
          // not inserted here.
          drop(e) {
            return Boolean(e.dataTransfer?.files?.length);
          },
        }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) {
            u.pasted = u.transactions.some((tr) => tr.isUserEvent('input.paste') || tr.isUserEvent('input.drop'));
            on.change?.(u);
          }
          if (u.viewportChanged) on.viewport?.();
          if (u.selectionSet && !u.docChanged) on.caret?.(u.state.selection.main.head);
        }),
      ],
    }),
  });
  // The text of a state of the document, made once (a text of megabytes takes milliseconds).
  let made = { doc: null, text: '' };
  const textOf = (doc) => {
    if (made.doc !== doc) made = { doc, text: doc.toString() };
    return made.text;
  };
  const text = () => textOf(view.state.doc);
  const clamp = (n) => Math.max(0, Math.min(n, view.state.doc.length));
  const editor = {
    view,
    get value() {
      return text();
    },
    // The document as it stands: a value that stays as it is whatever edits follow.
    get doc() {
      return view.state.doc;
    },
    // The text of `doc`, a document the editor held.
    textOf,
    get length() {
      return view.state.doc.length;
    },
    get selection() {
      const s = view.state.selection.main;
      return { from: s.from, to: s.to };
    },
    // Replaces `from..to` by `insert`: an edit of the page's (a move played, a repair applied),
    // which undo takes back on its own, never with the edits around it.
    replace(from, to, insert) {
      view.dispatch({
        changes: { from: clamp(from), to: clamp(to), insert },
        userEvent: 'input.page',
        annotations: isolateHistory.of('full'),
      });
    },
    // The whole text replaced (a file opened, a sample chosen): one edit undo takes back too.
    setText(value) {
      view.dispatch({
        changes: { from: 0, to: view.state.doc.length, insert: value },
        selection: { anchor: 0 },
        userEvent: 'input.replace',
        annotations: isolateHistory.of('full'),
      });
      view.scrollDOM.scrollTop = 0;
    },
    // Selects `from..to` and brings it into view.
    select(from, to = from) {
      view.dispatch({ selection: { anchor: clamp(from), head: clamp(to) }, scrollIntoView: true });
      view.focus();
    },
    // Brings offset `at` into view, a third of the way down, without moving the caret.
    scrollTo(at) {
      view.dispatch({ effects: EditorView.scrollIntoView(clamp(at), { y: 'start', yMargin: view.scrollDOM.clientHeight / 3 }) });
    },
    // The part of the text laid out: the lines in view and a margin around them.
    visible() {
      return { from: view.viewport.from, to: view.viewport.to };
    },
    // Sets the marks: `[{ from, to, cls }]`, any order; those outside the text are left out.
    setMarks(list) {
      const n = view.state.doc.length;
      const ranges = list
        .filter((m) => m.from < m.to && m.to <= n)
        .map((m) => Decoration.mark({ class: m.cls }).range(m.from, m.to));
      view.dispatch({ effects: setMarks.of(Decoration.set(ranges, true)) });
    },
    focus() {
      view.focus();
    },
    undo() {
      return undo(view);
    },
    redo() {
      return redo(view);
    },
  };
  // As a textarea reads, for scripts that read the page (the browser tests): the text, the
  // selection.
  Object.defineProperties(view.dom, {
    value: { get: text },
    selectionStart: { get: () => view.state.selection.main.from },
    selectionEnd: { get: () => view.state.selection.main.to },
  });
  return editor;
}
