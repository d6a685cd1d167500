//! The page is built without regex's Unicode tables (kempelen-adaptor without its `unicode`
//! feature: about half a megabyte less wasm). That is right only while every adaptor the page
//! compiles in has a reply pattern that needs none (no `\d`, `\w`, `\s`, `\b`, `\p{..}`,
//! `(?i)`: each of those fails to compile without the tables), so the page reads the programs'
//! replies as the command line does. Run as `cargo test -p kempelen-web`, this is the page's
//! regex; in a workspace-wide run cargo unifies the features with the command line's, and the
//! check says only that the patterns compile.
#![cfg(not(target_arch = "wasm32"))]

use kempelen_web::learn::programs::PROGRAMS;

#[test]
fn the_compiled_in_adaptors_reply_patterns_need_no_unicode_tables() {
    let tables = regex::Regex::new(r"\d").is_ok();
    eprintln!("regex's Unicode tables in this build: {tables}");
    for p in &PROGRAMS {
        let file: toml::Table = toml::from_str(p.text).expect("the adaptor file parses");
        let pattern = file["reply"]["pattern"]
            .as_str()
            .unwrap_or_else(|| panic!("{}: [reply] pattern", p.file));
        regex::Regex::new(pattern).unwrap_or_else(|e| {
            panic!(
                "{}: the reply pattern does not compile in the page's build: {e}",
                p.file
            )
        });
    }
}
