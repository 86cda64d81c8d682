//! Import circles between the files of one crate, for the tidy test.
//!
//! A file imports another when it names an item through it: a path that
//! starts with `crate::`, `super::` or `self::`, or with the name of a child
//! module the file declares (`child::Item`), in a `use` tree (groups
//! included: `use crate::{a::X, b::{c, d}}`) or anywhere in the code. The
//! path is followed down the module tree as far as it names modules, and
//! the file holding the last one is the one imported. A name the file only
//! re-exports (`pub use a::Item`) is followed on to where it comes from,
//! and the file that re-exports it is imported too (the name is resolved
//! through it, and a facade that imports its own users closes a circle),
//! unless it is a crate root, the facade of the whole crate. A re-export is
//! not itself an import: a facade names items, it does not depend on them. Declaring a child (`mod child;`) is not an import, nor
//! is anything in comments (doc links included) or string literals.
//!
//! The module tree is found as the compiler finds it, from each crate root
//! (`src/lib.rs`, `src/main.rs`, `src/bin/*.rs`, `tests/*.rs`,
//! `benches/*.rs`, `examples/*.rs`) through `mod` declarations, inline
//! modules and `#[path]` attributes; files outside the crate are left out.
//! Macros are read as ordinary code, which is what they are for these paths.

// A test's helper over the repository's own source: an index out of range is
// a failing tidy test, not a crash on user data.
#![allow(clippy::indexing_slicing)]

use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// The Rust files of one crate: each path relative to the crate directory
/// (`src/lib.rs`), with its text.
pub type CrateSources = BTreeMap<String, String>;

/// One set of files that import each other, directly or through others
/// (a strongly connected component of the import graph), with circles
/// through it that together pass every one of its files, shortest first
/// from each file not yet passed.
#[derive(Debug)]
pub struct ImportCircle {
    pub files: BTreeSet<String>,
    pub circles: Vec<Vec<String>>,
}

impl std::fmt::Display for ImportCircle {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(formatter, "{} files import each other:", self.files.len())?;
        for circle in &self.circles {
            write!(formatter, "\n    {}", circle.join(" → "))?;
        }
        Ok(())
    }
}

/// Every set of files of `sources` that import each other, in order of
/// their first file.
pub fn import_circles(sources: &CrateSources) -> Vec<ImportCircle> {
    let tree = ModuleTree::of(sources);
    let imports = tree.imports();
    let mut found: Vec<ImportCircle> = strongly_connected(&imports)
        .into_iter()
        .filter(|files| files.len() > 1)
        .map(|files| ImportCircle {
            circles: circles_through(&imports, &files),
            files,
        })
        .collect();
    found.sort_by(|a, b| a.files.first().cmp(&b.files.first()));
    found
}

/// The crate roots of a crate's files.
fn is_crate_root(file: &str) -> bool {
    let parts: Vec<&str> = file.split('/').collect();
    match parts.as_slice() {
        ["src", "lib.rs" | "main.rs"] => true,
        ["src", "bin", name] | ["tests" | "benches" | "examples", name] => name.ends_with(".rs"),
        ["src", "bin", _, "main.rs"] | ["tests" | "benches" | "examples", _, "main.rs"] => true,
        _ => false,
    }
}

/// The directory part of a relative path (`src/a` of `src/a/b.rs`).
fn directory_of(file: &str) -> &str {
    file.rsplit_once('/').map_or("", |(directory, _)| directory)
}

/// `a/b/../c` as `a/c`; `None` when it leaves the crate directory.
fn normalise(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            part => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Identifier(String),
    /// A string literal's content (escapes left as written).
    Text(String),
    /// `::`
    PathSeparator,
    Punctuation(char),
}

/// The tokens of Rust source text, without comments, with string literals
/// as [`Token::Text`], lifetimes and character literals dropped.
fn tokens(text: &str) -> Vec<Token> {
    let characters: Vec<char> = text.chars().collect();
    let at = |index: usize| characters.get(index).copied().unwrap_or('\0');
    let mut tokens = Vec::new();
    let mut index = 0;
    while index < characters.len() {
        let character = at(index);
        if character.is_whitespace() {
            index += 1;
        } else if character == '/' && at(index + 1) == '/' {
            while index < characters.len() && at(index) != '\n' {
                index += 1;
            }
        } else if character == '/' && at(index + 1) == '*' {
            let mut depth = 0;
            while index < characters.len() {
                if at(index) == '/' && at(index + 1) == '*' {
                    depth += 1;
                    index += 2;
                } else if at(index) == '*' && at(index + 1) == '/' {
                    depth -= 1;
                    index += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    index += 1;
                }
            }
        } else if character == '"' {
            let start = index + 1;
            index += 1;
            while index < characters.len() && at(index) != '"' {
                index += if at(index) == '\\' { 2 } else { 1 };
            }
            tokens.push(Token::Text(
                characters[start..index.min(characters.len())]
                    .iter()
                    .collect(),
            ));
            index += 1;
        } else if (character == 'r' || (character == 'b' && at(index + 1) == 'r'))
            && matches!(at(index + 1 + usize::from(character == 'b')), '"' | '#')
            && !(at(index.wrapping_sub(1)).is_alphanumeric() || at(index.wrapping_sub(1)) == '_')
        {
            // A raw string: `r"…"`, `r#"…"#`, `br"…"`.
            index += 1 + usize::from(character == 'b');
            let mut hashes = 0;
            while at(index) == '#' {
                hashes += 1;
                index += 1;
            }
            if at(index) != '"' {
                // `r#ident`, a raw identifier.
                continue;
            }
            index += 1;
            let start = index;
            let closing: String = std::iter::once('"')
                .chain(std::iter::repeat_n('#', hashes))
                .collect();
            while index < characters.len()
                && characters[index..]
                    .iter()
                    .take(closing.len())
                    .collect::<String>()
                    != closing
            {
                index += 1;
            }
            tokens.push(Token::Text(characters[start..index].iter().collect()));
            index += closing.len();
        } else if character == '\'' {
            if at(index + 1) == '\\' {
                // An escaped character literal: `'\n'`, `'\u{1F600}'`.
                index += 2;
                while index < characters.len() && at(index) != '\'' {
                    index += 1;
                }
                index += 1;
            } else if at(index + 2) == '\'' {
                index += 3;
            } else {
                // A lifetime: its name follows as an identifier.
                index += 1;
            }
        } else if character.is_alphanumeric() || character == '_' {
            let start = index;
            while at(index).is_alphanumeric() || at(index) == '_' {
                index += 1;
            }
            tokens.push(Token::Identifier(characters[start..index].iter().collect()));
        } else if character == ':' && at(index + 1) == ':' {
            tokens.push(Token::PathSeparator);
            index += 2;
        } else {
            tokens.push(Token::Punctuation(character));
            index += 1;
        }
    }
    tokens
}

/// A path of one use tree, with the name it binds (`None` for a glob).
type BoundPath = (Vec<String>, Option<String>);

/// A path one file names.
#[derive(Clone, Debug)]
struct NamedPath {
    /// The module the path is written in, inline modules included.
    written_in: Vec<String>,
    segments: Vec<String>,
    /// For a `use`: the name it binds (`None` for a glob).
    binding: Option<String>,
    /// A `pub use`: a re-export.
    re_export: bool,
}

/// What one file declares and names.
#[derive(Debug, Default)]
struct FileContents {
    /// `mod name;` declarations: the module they are in (inline modules
    /// included), the name and a `#[path]`.
    children: Vec<(Vec<String>, String, Option<String>)>,
    /// Inline modules (`mod tests { … }`), as paths below the file's module.
    inline_modules: Vec<Vec<String>>,
    paths: Vec<NamedPath>,
}

fn is_identifier(token: Option<&Token>, word: &str) -> bool {
    matches!(token, Some(Token::Identifier(name)) if name == word)
}

/// The `#[path = "…"]` among the attributes right before `mod` at `index`
/// (behind its visibility, if any).
fn path_attribute(tokens: &[Token], index: usize) -> Option<String> {
    let mut at = index;
    // Visibility: `pub`, `pub(crate)`, `pub(in a::b)`.
    while at > 0 {
        match &tokens[at - 1] {
            Token::Identifier(word)
                if ["pub", "crate", "super", "self", "in"].contains(&&**word) =>
            {
                at -= 1
            }
            Token::Punctuation('(' | ')') | Token::PathSeparator => at -= 1,
            _ => break,
        }
    }
    // Attributes, last first: `# [ … ]`.
    while at > 0 && tokens[at - 1] == Token::Punctuation(']') {
        let close = at - 1;
        let mut open = close;
        while open > 0 && tokens[open] != Token::Punctuation('[') {
            open -= 1;
        }
        if let [Token::Identifier(name), Token::Punctuation('='), Token::Text(path)] =
            &tokens[open + 1..close]
        {
            if name == "path" {
                return Some(path.clone());
            }
        }
        at = open.saturating_sub(1);
    }
    None
}

/// True when the `use` at `index` is a `pub use` (`pub(crate) use` too).
fn is_re_export(tokens: &[Token], index: usize) -> bool {
    let mut before = index;
    if before > 0 && tokens[before - 1] == Token::Punctuation(')') {
        while before > 0 && tokens[before - 1] != Token::Punctuation('(') {
            before -= 1;
        }
        before = before.saturating_sub(1);
    }
    before > 0 && is_identifier(tokens.get(before - 1), "pub")
}

/// Reads the use tree or path starting at `index` (a path's first segment,
/// or a `{` group), with `prefix` before it; returns each full path with
/// the name it binds, and the index after the tree.
fn read_tree(tokens: &[Token], mut index: usize, prefix: &[String]) -> (Vec<BoundPath>, usize) {
    let mut segments = prefix.to_vec();
    let mut found = Vec::new();
    loop {
        match tokens.get(index) {
            Some(Token::Identifier(name)) => {
                segments.push(name.clone());
                index += 1;
                if tokens.get(index) == Some(&Token::PathSeparator) {
                    index += 1;
                    continue;
                }
                let mut binding = if name == "self" {
                    segments.pop();
                    segments.last().cloned()
                } else {
                    Some(name.clone())
                };
                if is_identifier(tokens.get(index), "as") {
                    if let Some(Token::Identifier(alias)) = tokens.get(index + 1) {
                        binding = Some(alias.clone());
                    }
                    index += 2;
                }
                found.push((segments, binding));
                return (found, index);
            }
            Some(Token::Punctuation('{')) => {
                index += 1;
                loop {
                    match tokens.get(index) {
                        None => return (found, index),
                        Some(Token::Punctuation('}')) => return (found, index + 1),
                        Some(Token::Punctuation(',')) => index += 1,
                        Some(_) => {
                            let (inner, next) = read_tree(tokens, index, &segments);
                            found.extend(inner);
                            // Something a use tree does not hold: step over it.
                            index = next.max(index + 1);
                        }
                    }
                }
            }
            Some(Token::Punctuation('*')) => {
                found.push((segments, None));
                return (found, index + 1);
            }
            _ => {
                if segments.len() > prefix.len() {
                    found.push((segments, None));
                }
                return (found, index);
            }
        }
    }
}

/// Reads the declarations and paths of one file.
fn read_file(text: &str) -> FileContents {
    let tokens = tokens(text);
    let mut contents = FileContents::default();
    // One entry per open brace: the inline module it opens, if it does.
    let mut braces: Vec<Option<String>> = Vec::new();
    let inline_path =
        |braces: &[Option<String>]| -> Vec<String> { braces.iter().flatten().cloned().collect() };
    let mut index = 0;
    while index < tokens.len() {
        let previous = index.checked_sub(1).map(|before| &tokens[before]);
        match &tokens[index] {
            Token::Identifier(word) if word == "mod" => {
                if let Some(Token::Identifier(name)) = tokens.get(index + 1) {
                    match tokens.get(index + 2) {
                        Some(Token::Punctuation(';')) => {
                            contents.children.push((
                                inline_path(&braces),
                                name.clone(),
                                path_attribute(&tokens, index),
                            ));
                            index += 3;
                            continue;
                        }
                        Some(Token::Punctuation('{')) => {
                            braces.push(Some(name.clone()));
                            contents.inline_modules.push(inline_path(&braces));
                            index += 3;
                            continue;
                        }
                        _ => {}
                    }
                }
                index += 1;
            }
            Token::Identifier(word) if word == "use" => {
                let re_export = is_re_export(&tokens, index);
                let mut start = index + 1;
                if tokens.get(start) == Some(&Token::PathSeparator) {
                    start += 1;
                }
                let (found, next) = read_tree(&tokens, start, &[]);
                for (segments, binding) in found {
                    contents.paths.push(NamedPath {
                        written_in: inline_path(&braces),
                        segments,
                        binding,
                        re_export,
                    });
                }
                index = next.max(index + 1);
            }
            Token::Identifier(_)
                if tokens.get(index + 1) == Some(&Token::PathSeparator)
                    && !matches!(
                        previous,
                        Some(Token::PathSeparator | Token::Punctuation('$' | '.'))
                    ) =>
            {
                let (found, next) = read_tree(&tokens, index, &[]);
                for (segments, _) in found {
                    contents.paths.push(NamedPath {
                        written_in: inline_path(&braces),
                        segments,
                        binding: None,
                        re_export: false,
                    });
                }
                index = next.max(index + 1);
            }
            Token::Punctuation('{') => {
                braces.push(None);
                index += 1;
            }
            Token::Punctuation('}') => {
                braces.pop();
                index += 1;
            }
            _ => index += 1,
        }
    }
    contents
}

/// A crate root and a module path in its tree.
type Place = (String, Vec<String>);

/// The modules of a crate and the files they are in, per crate root.
struct ModuleTree {
    /// Per crate root and module path, the file holding the module.
    modules: BTreeMap<Place, String>,
    /// Per file: where it is in the tree of each crate root, and what it holds.
    files: BTreeMap<String, (Vec<Place>, FileContents)>,
}

impl ModuleTree {
    fn of(sources: &CrateSources) -> ModuleTree {
        let mut tree = ModuleTree {
            modules: BTreeMap::new(),
            files: BTreeMap::new(),
        };
        for root in sources.keys().filter(|file| is_crate_root(file)) {
            let children_in = directory_of(root).to_owned();
            tree.visit(sources, root, root, Vec::new(), &children_in);
        }
        tree
    }

    fn visit(
        &mut self,
        sources: &CrateSources,
        root: &str,
        file: &str,
        module: Vec<String>,
        children_in: &str,
    ) {
        let Some(text) = sources.get(file) else {
            return;
        };
        self.modules
            .insert((root.to_owned(), module.clone()), file.to_owned());
        if let Some((places, _)) = self.files.get_mut(file) {
            // A file reached twice (from two roots, or two `#[path]`s).
            places.push((root.to_owned(), module));
            return;
        }
        let contents = read_file(text);
        for inline in &contents.inline_modules {
            let path = module.iter().chain(inline).cloned().collect();
            self.modules
                .insert((root.to_owned(), path), file.to_owned());
        }
        let children = contents.children.clone();
        self.files.insert(
            file.to_owned(),
            (vec![(root.to_owned(), module.clone())], contents),
        );
        for (inline, name, path_attribute) in children {
            let child_module: Vec<String> = module
                .iter()
                .chain(&inline)
                .chain([&name])
                .cloned()
                .collect();
            let (child_file, grandchildren_in) = match path_attribute {
                Some(path) => {
                    let Some(child_file) = normalise(&format!("{}/{path}", directory_of(file)))
                    else {
                        continue;
                    };
                    let directory = directory_of(&child_file).to_owned();
                    (child_file, directory)
                }
                None => {
                    let directory = std::iter::once(children_in)
                        .chain(inline.iter().map(String::as_str))
                        .filter(|part| !part.is_empty())
                        .collect::<Vec<_>>()
                        .join("/");
                    let flat = format!("{directory}/{name}.rs");
                    if sources.contains_key(&flat) {
                        (flat, format!("{directory}/{name}"))
                    } else {
                        (
                            format!("{directory}/{name}/mod.rs"),
                            format!("{directory}/{name}"),
                        )
                    }
                }
            };
            self.visit(sources, root, &child_file, child_module, &grandchildren_in);
        }
    }

    /// The file `path` (written in module `here` of crate root `root`)
    /// leads to, or `None` when it names nothing of the crate; the files
    /// whose re-exports it passed through on the way, crate roots aside, are
    /// added to `facades`.
    fn resolve(
        &self,
        root: &str,
        here: &[String],
        path: &[String],
        depth: usize,
        facades: &mut Vec<String>,
    ) -> Option<String> {
        let mut segments = path.iter().peekable();
        let mut module: Vec<String> = match segments.peek().map(|first| first.as_str()) {
            Some("crate") => {
                segments.next();
                Vec::new()
            }
            Some("self" | "super") => here.to_vec(),
            Some(first) => {
                let child: Vec<String> = here.iter().cloned().chain([first.to_owned()]).collect();
                if !self.modules.contains_key(&(root.to_owned(), child)) {
                    return None;
                }
                here.to_vec()
            }
            None => return None,
        };
        while let Some(segment) = segments.peek() {
            match segment.as_str() {
                "self" => {}
                "super" => {
                    module.pop()?;
                }
                name => {
                    let mut child = module.clone();
                    child.push(name.to_owned());
                    if !self.modules.contains_key(&(root.to_owned(), child.clone())) {
                        break;
                    }
                    module = child;
                }
            }
            segments.next();
        }
        let file = self.modules.get(&(root.to_owned(), module.clone()))?;
        // A name the file re-exports leads on to where it comes from.
        if let (Some(item), Some((_, contents))) = (segments.next(), self.files.get(file)) {
            let (_, file_module) = self.place_in(file, root)?;
            let re_export = contents.paths.iter().find(|named| {
                named.re_export
                    && named.binding.as_ref() == Some(item)
                    && file_module
                        .iter()
                        .chain(&named.written_in)
                        .eq(module.iter())
            });
            if let Some(re_export) = re_export.filter(|_| depth < 8) {
                if let Some(onward) =
                    self.resolve(root, &module, &re_export.segments, depth + 1, facades)
                {
                    if !is_crate_root(file) {
                        facades.push(file.clone());
                    }
                    return Some(onward);
                }
            }
        }
        Some(file.clone())
    }

    /// Where `file` is in the tree of crate root `root`.
    fn place_in(&self, file: &str, root: &str) -> Option<Place> {
        let (places, _) = self.files.get(file)?;
        places
            .iter()
            .find(|(its_root, _)| its_root == root)
            .cloned()
    }

    /// Per file, the other files it imports.
    fn imports(&self) -> BTreeMap<String, BTreeSet<String>> {
        let mut imports: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (file, (places, contents)) in &self.files {
            let edges = imports.entry(file.clone()).or_default();
            for (root, module) in places {
                for named in contents.paths.iter().filter(|named| !named.re_export) {
                    let here: Vec<String> =
                        module.iter().chain(&named.written_in).cloned().collect();
                    let mut facades = Vec::new();
                    if let Some(target) =
                        self.resolve(root, &here, &named.segments, 0, &mut facades)
                    {
                        for imported in facades.into_iter().chain([target]) {
                            if imported != *file {
                                edges.insert(imported);
                            }
                        }
                    }
                }
            }
        }
        imports
    }
}

/// Tarjan's strongly connected components of `graph`.
fn strongly_connected(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    struct Search<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        components: Vec<BTreeSet<String>>,
    }
    impl<'a> Search<'a> {
        fn visit(&mut self, node: &'a str) {
            let number = self.index.len();
            self.index.insert(node, number);
            self.low.insert(node, number);
            self.stack.push(node);
            self.on_stack.insert(node);
            for next in self.graph.get(node).into_iter().flatten() {
                if !self.index.contains_key(next.as_str()) {
                    self.visit(next);
                    let low = self.low[node].min(self.low[next.as_str()]);
                    self.low.insert(node, low);
                } else if self.on_stack.contains(next.as_str()) {
                    let low = self.low[node].min(self.index[next.as_str()]);
                    self.low.insert(node, low);
                }
            }
            if self.low[node] == self.index[node] {
                let mut component = BTreeSet::new();
                while let Some(member) = self.stack.pop() {
                    self.on_stack.remove(member);
                    component.insert(member.to_owned());
                    if member == node {
                        break;
                    }
                }
                self.components.push(component);
            }
        }
    }
    let mut search = Search {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        components: Vec::new(),
    };
    for node in graph.keys() {
        if !search.index.contains_key(node.as_str()) {
            search.visit(node);
        }
    }
    search.components
}

/// Shortest circles inside `component`, one from each file no earlier
/// circle passed, until every file is passed.
fn circles_through(
    graph: &BTreeMap<String, BTreeSet<String>>,
    component: &BTreeSet<String>,
) -> Vec<Vec<String>> {
    let mut passed: BTreeSet<&String> = BTreeSet::new();
    let mut circles = Vec::new();
    for start in component {
        if passed.contains(start) {
            continue;
        }
        // Breadth first from `start` back to it, inside the component.
        let mut came_from: BTreeMap<&String, &String> = BTreeMap::new();
        let mut queue = VecDeque::from([start]);
        let mut last = None;
        'search: while let Some(at) = queue.pop_front() {
            for next in graph.get(at).into_iter().flatten() {
                if !component.contains(next) {
                    continue;
                }
                if next == start {
                    last = Some(at);
                    break 'search;
                }
                if !came_from.contains_key(next) {
                    came_from.insert(next, at);
                    queue.push_back(next);
                }
            }
        }
        let mut circle = vec![start.clone()];
        let mut at = last;
        while let Some(file) = at.filter(|file| *file != start) {
            circle.push(file.clone());
            at = came_from.get(file).copied();
        }
        circle.push(start.clone());
        // It was gathered backwards: start, then the last file before it.
        let n_files = circle.len();
        circle[1..n_files - 1].reverse();
        passed.extend(component.iter().filter(|file| circle.contains(file)));
        circles.push(circle);
    }
    circles
}
