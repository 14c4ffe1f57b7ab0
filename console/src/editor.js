// The Gremlin editor: CodeMirror 6 with the Groovy mode (Gremlin scripts are a Groovy subset),
// Ctrl-Enter (Cmd-Enter) to run, Ctrl-Up/Down to walk the browser-kept history.
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { bracketMatching, defaultHighlightStyle, StreamLanguage, syntaxHighlighting } from "@codemirror/language";
import { groovy } from "@codemirror/legacy-modes/mode/groovy";
import { Prec } from "@codemirror/state";
import { EditorView, highlightActiveLine, keymap, lineNumbers } from "@codemirror/view";

import { loadHistory } from "./history.js";

/**
 * Mounts the editor in `parent`; `run(script)` is called on Ctrl-Enter.
 * Returns {get(), set(text), focus()}.
 */
export function createEditor(parent, run, initial) {
  let cursor = -1; // position in the history while walking it with Ctrl-Up/Down
  const set = (view, text) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
  const walk = (step) => (view) => {
    const list = loadHistory();
    if (!list.length) return true;
    cursor = Math.max(-1, Math.min(list.length - 1, cursor + step));
    set(view, cursor < 0 ? "" : list[cursor]);
    return true;
  };
  const keys = Prec.highest(
    keymap.of([
      { key: "Mod-Enter", run: (view) => { cursor = -1; run(view.state.doc.toString()); return true; } },
      { key: "Mod-ArrowUp", run: walk(1) },
      { key: "Mod-ArrowDown", run: walk(-1) },
    ]),
  );
  const view = new EditorView({
    parent,
    doc: initial,
    extensions: [
      keys,
      lineNumbers(),
      highlightActiveLine(),
      history(),
      bracketMatching(),
      StreamLanguage.define(groovy),
      syntaxHighlighting(defaultHighlightStyle),
      keymap.of([...defaultKeymap, ...historyKeymap]),
      EditorView.lineWrapping,
    ],
  });
  return {
    get: () => view.state.doc.toString(),
    set: (text) => set(view, text),
    focus: () => view.focus(),
  };
}
