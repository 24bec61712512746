// A native stand-in for the Rust peer's agy `discover` (bench/list.bench.ts
// builds it with `rustc -O` when rustc is installed; no crates, SQLite
// through its C API). For each `<id>.db` in the conversations folder it reads
// what the peer's discover reads (docs/formats/antigravity.md): every row of
// trajectory_meta, steps (all columns), gen_metadata, executor_metadata,
// parent_references, battle_mode_infos and trajectory_metadata_blob, copied
// out of SQLite, and the two display logs under
// brain/<id>/.system_generated/logs/; then it decodes the few protobuf fields
// a listing shows (the main blob's start time and workspace, the latest
// checkpoint's title or the first user input, the latest planner response's
// model) and prints one JSON line per conversation.
//
//   agy-discover <agy root>

use std::ffi::{c_char, c_int, c_void, CString};
use std::fs;
use std::path::Path;

#[repr(C)]
struct Sqlite3 {
    _p: [u8; 0],
}
#[repr(C)]
struct Stmt {
    _p: [u8; 0],
}

#[link(name = "sqlite3")]
extern "C" {
    fn sqlite3_open_v2(f: *const c_char, db: *mut *mut Sqlite3, flags: c_int, vfs: *const c_char) -> c_int;
    fn sqlite3_prepare_v2(db: *mut Sqlite3, sql: *const c_char, n: c_int, s: *mut *mut Stmt, tail: *mut *const c_char) -> c_int;
    fn sqlite3_step(s: *mut Stmt) -> c_int;
    fn sqlite3_column_count(s: *mut Stmt) -> c_int;
    fn sqlite3_column_int64(s: *mut Stmt, i: c_int) -> i64;
    fn sqlite3_column_blob(s: *mut Stmt, i: c_int) -> *const c_void;
    fn sqlite3_column_bytes(s: *mut Stmt, i: c_int) -> c_int;
    fn sqlite3_column_type(s: *mut Stmt, i: c_int) -> c_int;
    fn sqlite3_finalize(s: *mut Stmt) -> c_int;
    fn sqlite3_close(db: *mut Sqlite3) -> c_int;
}

const OPEN_READONLY: c_int = 0x1;
const OPEN_NOMUTEX: c_int = 0x8000;
const ROW: c_int = 100;
const INTEGER: c_int = 1;
const NULL: c_int = 5;

#[derive(Clone)]
enum Value {
    Null,
    Int(i64),
    Bytes(Vec<u8>),
}

/// Every row of `sql`, each column copied out (integers as integers, the rest as bytes).
fn rows(db: *mut Sqlite3, sql: &str) -> Option<Vec<Vec<Value>>> {
    let c = CString::new(sql).ok()?;
    let mut s: *mut Stmt = std::ptr::null_mut();
    unsafe {
        if sqlite3_prepare_v2(db, c.as_ptr(), -1, &mut s, std::ptr::null_mut()) != 0 {
            sqlite3_finalize(s);
            return None;
        }
        let n = sqlite3_column_count(s);
        let mut out = Vec::new();
        while sqlite3_step(s) == ROW {
            let mut row = Vec::with_capacity(n as usize);
            for i in 0..n {
                row.push(match sqlite3_column_type(s, i) {
                    NULL => Value::Null,
                    INTEGER => Value::Int(sqlite3_column_int64(s, i)),
                    _ => {
                        let p = sqlite3_column_blob(s, i) as *const u8;
                        let len = sqlite3_column_bytes(s, i) as usize;
                        if p.is_null() {
                            Value::Bytes(Vec::new())
                        } else {
                            Value::Bytes(std::slice::from_raw_parts(p, len).to_vec())
                        }
                    }
                });
            }
            out.push(row);
        }
        sqlite3_finalize(s);
        Some(out)
    }
}

fn int(v: &Value) -> i64 {
    match v {
        Value::Int(i) => *i,
        _ => 0,
    }
}
fn bytes(v: &Value) -> &[u8] {
    match v {
        Value::Bytes(b) => b,
        _ => &[],
    }
}

fn varint(b: &[u8], mut i: usize) -> Option<(u64, usize)> {
    let mut v = 0u64;
    let mut shift = 0;
    while i < b.len() && shift < 64 {
        let x = b[i];
        i += 1;
        v |= u64::from(x & 0x7f) << shift;
        if x & 0x80 == 0 {
            return Some((v, i));
        }
        shift += 7;
    }
    None
}

/// The first length-delimited field `field` (bytes) or varint field (as its value) of a message.
fn field(b: &[u8], want: u64) -> Option<Result<&[u8], u64>> {
    let mut i = 0;
    while i < b.len() {
        let (key, j) = varint(b, i)?;
        i = j;
        let (num, wire) = (key >> 3, key & 7);
        match wire {
            0 => {
                let (v, j) = varint(b, i)?;
                i = j;
                if num == want {
                    return Some(Err(v));
                }
            }
            1 => i += 8,
            5 => i += 4,
            2 => {
                let (len, j) = varint(b, i)?;
                let end = j.checked_add(len as usize)?;
                if end > b.len() {
                    return None;
                }
                if num == want {
                    return Some(Ok(&b[j..end]));
                }
                i = end;
            }
            _ => return None,
        }
    }
    None
}
fn sub(b: &[u8], f: u64) -> Option<&[u8]> {
    field(b, f)?.ok()
}
fn uint(b: &[u8], f: u64) -> Option<u64> {
    field(b, f)?.err()
}
fn text(b: &[u8], f: u64) -> Option<String> {
    sub(b, f).map(|s| String::from_utf8_lossy(s).into_owned()).filter(|s| !s.trim().is_empty())
}

fn json(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn discover(root: &Path, db_path: &Path, id: &str) -> Option<String> {
    let c = CString::new(db_path.to_str()?).ok()?;
    let mut db: *mut Sqlite3 = std::ptr::null_mut();
    let opened = unsafe { sqlite3_open_v2(c.as_ptr(), &mut db, OPEN_READONLY | OPEN_NOMUTEX, std::ptr::null()) };
    if opened != 0 {
        unsafe { sqlite3_close(db) };
        return None;
    }
    let meta = rows(db, "SELECT trajectory_id, cascade_id, trajectory_type, source FROM trajectory_meta ORDER BY trajectory_id");
    let steps = rows(
        db,
        "SELECT idx, step_type, status, has_subtrajectory, metadata, error_details, permissions, task_details, render_info, step_payload, step_format FROM steps ORDER BY idx",
    );
    let gen = rows(db, "SELECT idx, data, size FROM gen_metadata ORDER BY idx");
    let extra: Vec<_> = ["executor_metadata", "parent_references", "battle_mode_infos"]
        .iter()
        .map(|t| rows(db, &format!("SELECT idx, data FROM {t} ORDER BY idx")))
        .collect();
    let blobs = rows(db, "SELECT id, data FROM trajectory_metadata_blob ORDER BY id");
    unsafe { sqlite3_close(db) };
    let (meta, steps, gen, blobs) = (meta?, steps?, gen?, blobs?);
    if extra.iter().any(Option::is_none) {
        return None;
    }
    let logs = root.join("brain").join(id).join(".system_generated").join("logs");
    let transcript = fs::read_to_string(logs.join("transcript.jsonl")).ok();
    let full = fs::read_to_string(logs.join("transcript_full.jsonl")).ok();

    let main = blobs.iter().find(|r| bytes(&r[0]) == b"main").map(|r| bytes(&r[1])).unwrap_or(&[]);
    let cascade = meta.first().map(|r| String::from_utf8_lossy(bytes(&r[1])).into_owned()).filter(|s| !s.is_empty());
    let id = cascade.or_else(|| text(main, 6)).unwrap_or_else(|| id.to_string());
    let cwd = sub(main, 1).and_then(|w| text(w, 1)).or_else(|| text(main, 7)).unwrap_or_default();
    let seconds = sub(main, 2).and_then(|t| uint(t, 1)).or_else(|| {
        steps.iter().find_map(|s| sub(bytes(&s[9]), 5).and_then(|m| sub(m, 1)).and_then(|t| uint(t, 1)))
    });
    let title = steps
        .iter()
        .rev()
        .filter(|s| int(&s[1]) == 23)
        .find_map(|s| sub(bytes(&s[9]), 30).and_then(|c| text(c, 10).or_else(|| text(c, 4))))
        .or_else(|| {
            steps.iter().filter(|s| int(&s[1]) == 14).find_map(|s| sub(bytes(&s[9]), 19).and_then(|u| text(u, 2)))
        })
        .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" ").chars().take(80).collect::<String>())
        .unwrap_or_default();
    let model = steps
        .iter()
        .rev()
        .filter(|s| int(&s[1]) == 15)
        .find_map(|s| sub(bytes(&s[9]), 5).and_then(|m| uint(m, 11)))
        .unwrap_or(0);
    Some(format!(
        "{{\"id\":{},\"title\":{},\"cwd\":{},\"seconds\":{},\"model\":{},\"steps\":{},\"gen\":{},\"logs\":{}}}",
        json(&id),
        json(&title),
        json(&cwd),
        seconds.unwrap_or(0),
        model,
        steps.len(),
        gen.len(),
        transcript.map_or(0, |t| t.len()) + full.map_or(0, |t| t.len()),
    ))
}

fn main() {
    let root = std::env::args().nth(1).expect("usage: agy-discover <agy root>");
    let root = Path::new(&root);
    let mut out = String::new();
    let Ok(entries) = fs::read_dir(root.join("conversations")) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "db") {
            continue;
        }
        let Some(id) = path.file_stem().and_then(|s| s.to_str()).map(str::to_string) else { continue };
        if let Some(line) = discover(root, &path, &id) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    print!("{out}");
}
