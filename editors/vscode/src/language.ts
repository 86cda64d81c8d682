// Which files the extension shows as OpenTofu, beyond the `.tofu` files its
// manifest claims.
//
// `.tf` (and `.tfvars`, `.tftest.hcl`, `.tofutest.hcl`) is not claimed in the
// manifest: the HashiCorp Terraform extension calls it `terraform`, the
// OpenTofu extension `opentofu`, and when two languages claim one file
// extension VS Code gives it to the extension whose folder sorts last, so a
// claim here would take `.tf` away from HashiCorp's (its language server
// selects `terraform` documents). Instead, a file of these kinds that opens as
// Plain Text (no other extension claims it) is switched to `opentofu`, which
// gives it this extension's grammar and language configuration.
//
// This module does not import `vscode`; the manifest test drives it as it is.

/** The language this extension contributes (id, grammar, configuration). */
export const LANGUAGE_ID = 'opentofu';

/** The language id VS Code gives a file no extension claims. */
export const PLAIN_TEXT = 'plaintext';

/** File name endings shown as OpenTofu when nothing else claims them. */
export const PLAIN_TEXT_SUFFIXES = ['.tf', '.tfvars', '.tftest.hcl', '.tofutest.hcl'];

/**
 * A `files.associations` pattern as a regular expression, the way VS Code
 * reads it: a pattern with a slash matches the whole path, any other the file
 * name; `**` crosses directories, `*` and `?` stay within one.
 */
export function associationPattern(glob: string): { regexp: RegExp; onPath: boolean } {
  const onPath = glob.includes('/');
  let source = '';
  for (let i = 0; i < glob.length; i += 1) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      source += '.*';
      i += 1;
      if (glob[i + 1] === '/') {
        source += '/?';
        i += 1;
      }
    } else if (c === '*') {
      source += '[^/]*';
    } else if (c === '?') {
      source += '[^/]';
    } else {
      source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
  }
  return { regexp: new RegExp(`^${source}$`, 'i'), onPath };
}

/**
 * True when the document at `filePath` (a path with `/`), opened as
 * `languageId`, should become OpenTofu: it is Plain Text, its name ends in one
 * of the suffixes, and no `files.associations` entry names it (a user who
 * maps `*.tf` to anything, Plain Text included, has chosen).
 */
export function claimsPlainText(
  filePath: string,
  languageId: string,
  associations: Record<string, string> | undefined,
): boolean {
  if (languageId !== PLAIN_TEXT) {
    return false;
  }
  const name = filePath.slice(filePath.lastIndexOf('/') + 1);
  if (!PLAIN_TEXT_SUFFIXES.some((suffix) => name.endsWith(suffix))) {
    return false;
  }
  for (const glob of Object.keys(associations ?? {})) {
    const { regexp, onPath } = associationPattern(glob);
    if (regexp.test(onPath ? filePath : name)) {
      return false;
    }
  }
  return true;
}

/**
 * Remembers the documents whose language someone changed away from OpenTofu
 * while they stayed open (the language picker, or another extension), so that
 * they are not switched back; a document really closed is forgotten.
 */
export class LanguageChoices {
  private readonly chosen = new Set<string>();

  /** A document closed; `stillShown`: an editor tab still shows it (a language change, not a close). */
  closed(uri: string, languageId: string, stillShown: boolean): void {
    if (!stillShown) {
      this.chosen.delete(uri);
    } else if (languageId === LANGUAGE_ID) {
      this.chosen.add(uri);
    }
  }

  /** True when the document's language was chosen by someone else: leave it. */
  isChosen(uri: string): boolean {
    return this.chosen.has(uri);
  }
}
