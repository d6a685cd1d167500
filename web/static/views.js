// The page's views (tabs), registered in one place. A view is an object:
//
//   {
//     name: "play",            // its name in links (#...&view=play)
//     title: "Play",           // its tab
//     order: 10,               // where its tab goes (lower first)
//     mount(element, app),     // once, before it is first shown: build its DOM in `element`
//     show(link, app, how),    // when it becomes the active view: `how` is "link" when a
//                              //   link was opened (load, or an edited address), "tab" when
//                              //   the user switched tabs; `link` is the fragment read by the
//                              //   Rust side (fen, moves, engine, machine, depth, speed, view,
//                              //   extra)
//     hide(app),               // optional: when another view becomes active
//   }
//
// Add a view by writing views/<name>.js that calls registerView(...) and importing it in
// main.js. `app` (main.js) is what views share: the wasm module, the engine worker, the
// router, the game, the message bar.

export const VIEWS = [];

export function registerView(view) {
  if (VIEWS.some((v) => v.name === view.name)) throw new Error(`view '${view.name}' registered twice`);
  VIEWS.push(view);
  VIEWS.sort((a, b) => (a.order ?? 100) - (b.order ?? 100));
}

export function findView(name) {
  return VIEWS.find((v) => v.name === name);
}
