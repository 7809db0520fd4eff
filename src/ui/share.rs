//! Share, export and import: the run as a link (the page opens on the same
//! moment), as an `<iframe>` snippet, as the runner's transcript, as a bash
//! script for real etcd on loopback addresses (`crate::export`), and a box to paste a script or
//! transcript into, which replays it in a new world and says what it did
//! (`link::ImportReport`, as the page's notice). A button sends
//! `Msg::Export`: the reducer keeps the run as it was at that moment
//! (`Model::export`), and the panel, in an effect, makes the text from it,
//! copies a link or embed code to the clipboard, and shows it as text only.

use std::rc::Rc;

use yew::prelude::*;

use super::state::{Export, ExportKind, Msg, Shared};
use crate::link::{self, Run};
use crate::sim::view::visible_text;

/// What the panel shows below its buttons.
#[derive(Clone, PartialEq)]
enum Shown {
    Nothing,
    /// A text to copy or save: what it is, its file name, the text.
    Text {
        what: &'static str,
        file: String,
        text: String,
    },
    /// The import box.
    Import,
}

#[derive(Properties, PartialEq)]
pub struct ShareProps {
    /// The last share or export asked for in this world (a new one per press).
    pub export: Option<Shared<Export>>,
    pub on_msg: Callback<Msg>,
}

/// The page's address without its query and fragment: where links point.
fn page_base() -> String {
    let Some(loc) = web_sys::window().map(|w| w.location()) else {
        return String::new();
    };
    let origin = loc.origin().unwrap_or_default();
    let path = loc.pathname().unwrap_or_default();
    format!("{origin}{path}")
}

/// The share link of a run, or why there is none.
pub fn share_url(run: &Run) -> Result<String, String> {
    let fragment = run.to_link().map_err(|e| {
        format!(
            "This run does not fit in a link: {}. Export it as a script and Import it instead.",
            e.why()
        )
    })?;
    Ok(format!("{}#{fragment}", page_base()))
}

/// The `<iframe>` that embeds the page at the run's moment.
pub fn embed_code(run: &Run) -> Result<String, String> {
    let url = share_url(run)?;
    let (base, fragment) = url.split_once('#').unwrap_or((&url, ""));
    Ok(format!(
        "<iframe src=\"{base}?embed=1#{fragment}\" title=\"Quorum Playground: an etcd cluster on real Raft\" width=\"960\" height=\"640\" style=\"border:1px solid #ccc;border-radius:6px\" loading=\"lazy\"></iframe>"
    ))
}

/// Copies text to the clipboard when the page has one (plain http on a
/// non-local address has none); the text is shown to copy by hand either way.
/// Says which, for the label above the text.
fn copy(text: &str, what: &'static str) -> &'static str {
    let Some(w) = web_sys::window() else {
        return what;
    };
    let has = js_sys::Reflect::has(&w.navigator(), &"clipboard".into()).unwrap_or(false);
    if !has {
        return what;
    }
    let _ = w.navigator().clipboard().write_text(text);
    match what {
        "Link" => "Link (copied)",
        _ => "Embed code (copied)",
    }
}

/// A `data:` URL of a text file, for a download link.
fn data_url(text: &str) -> String {
    let encoded: String = js_sys::encode_uri_component(text).into();
    format!("data:text/plain;charset=utf-8,{encoded}")
}

#[function_component(SharePanel)]
pub fn share_panel(props: &ShareProps) -> Html {
    let shown = use_state(|| Shown::Nothing);
    let error = use_state(|| None::<String>);
    let show = {
        let (shown, error) = (shown.clone(), error.clone());
        Callback::from(move |r: Result<Shown, String>| match r {
            Ok(s) => {
                error.set(None);
                shown.set(s);
            }
            Err(e) => {
                error.set(Some(e));
                shown.set(Shown::Nothing);
            }
        })
    };
    {
        // A press: its text made (and copied) once, after the render.
        let show = show.clone();
        use_effect_with(props.export.clone(), move |export| {
            if let Some(e) = export {
                show.emit(make(e.kind, &e.run));
            }
        });
    }
    let button = |label: &'static str, testid: &'static str, title: &'static str, kind| {
        let onclick = props.on_msg.reform(move |_| Msg::Export(kind));
        html! { <button data-testid={testid} {title} {onclick}>{ label }</button> }
    };
    let import = shown.setter().to_callback().reform(|_| Shown::Import);
    html! {
        <div class="share" data-testid="share">
            <div class="share-buttons">
                { button("Copy link", "copy-link", "a link that opens this run at this moment", ExportKind::Link) }
                { button("Copy embed code", "copy-embed", "an <iframe> for course material", ExportKind::Embed) }
                { button("Transcript", "export-transcript", "the run as the headless runner prints it", ExportKind::Transcript) }
                { button("Script", "export-script", "the run's commands for the headless runner or Import", ExportKind::Script) }
                { button("Bash for real etcd", "export-bash", "the same steps against real etcd (3.4.23, and 3.5.1 for machines on 3.5) on 127.0.0.x loopback addresses", ExportKind::Bash) }
                <button data-testid="import" title="paste a script or transcript and replay it" onclick={import}>{ "Import…" }</button>
            </div>
            if let Some(e) = &*error {
                <p class="share-error" role="alert" data-testid="share-error">{ visible_text(e).into_owned() }</p>
            }
            { shown_view(&shown, &props.on_msg, &error) }
        </div>
    }
}

/// What a button makes of the run (a link or embed code is also copied).
fn make(kind: ExportKind, run: &Run) -> Result<Shown, String> {
    let file = |tail: &str| format!("quorum-playground-seed{}{tail}", run.seed);
    let (what, file, text) = match kind {
        ExportKind::Link => {
            let url = share_url(run)?;
            (copy(&url, "Link"), String::new(), url)
        }
        ExportKind::Embed => {
            let code = embed_code(run)?;
            (copy(&code, "Embed code"), String::new(), code)
        }
        ExportKind::Transcript => ("Transcript", file(".txt"), link::transcript(run)),
        ExportKind::Script => ("Script", file(".sh"), run.script()),
        ExportKind::Bash => (
            "Bash script for real etcd 3.4.23 / 3.5.1 (net faults become manual steps)",
            file("-real-etcd.sh"),
            crate::export::bash_seeded(&run.script(), run.seed).map_err(|e| e.to_string())?,
        ),
    };
    Ok(Shown::Text { what, file, text })
}

fn shown_view(
    shown: &UseStateHandle<Shown>,
    on_msg: &Callback<Msg>,
    error: &UseStateHandle<Option<String>>,
) -> Html {
    match &**shown {
        Shown::Nothing => Html::default(),
        Shown::Text { what, file, text } => html! {
            <div class="share-out">
                <label class="small" for="share-text">{ *what }</label>
                <textarea id="share-text" data-testid="share-text" readonly=true rows="6" value={text.clone()} />
                if !file.is_empty() {
                    <a class="small" href={data_url(text)} download={file.clone()} data-testid="share-download">{ format!("Save as {file}") }</a>
                }
            </div>
        },
        Shown::Import => import_box(shown, on_msg, error),
    }
}

/// The import box: paste, then Replay (a new world) or Cancel.
fn import_box(
    shown: &UseStateHandle<Shown>,
    on_msg: &Callback<Msg>,
    error: &UseStateHandle<Option<String>>,
) -> Html {
    let replay = {
        let (shown, on_msg, error) = (shown.clone(), on_msg.clone(), error.clone());
        Callback::from(move |_| {
            let text = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.get_element_by_id("import-text"))
                .and_then(|el| {
                    wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlTextAreaElement>(el).ok()
                })
                .map(|t| t.value())
                .unwrap_or_default();
            match link::import_with_report(&text) {
                Ok(imported) => {
                    error.set(None);
                    shown.set(Shown::Nothing);
                    on_msg.emit(Msg::Load(Rc::new(imported.run)));
                    // What Import made of the text (script or transcript,
                    // commands kept, lines not run), over the new world.
                    on_msg.emit(Msg::Notice(imported.report.to_string()));
                }
                Err(e) => error.set(Some(e.to_string())),
            }
        })
    };
    let cancel = shown.setter().to_callback().reform(|_| Shown::Nothing);
    html! {
        <div class="share-out">
            <label class="small" for="import-text">{ "Paste a script (what the runner reads) or a transcript (what it prints). A line # seed: N sets the seed." }</label>
            <textarea id="import-text" data-testid="import-text" rows="6" spellcheck="false" />
            <div class="share-buttons">
                <button data-testid="import-run" onclick={replay}>{ "Replay in a new world" }</button>
                <button onclick={cancel}>{ "Cancel" }</button>
            </div>
        </div>
    }
}
