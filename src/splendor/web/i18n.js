/**
 * The client's words in the reader's language: English (the source's), French, Dutch,
 * German, Spanish, Italian, Portuguese (Brazil's) or Polish.
 *
 * Every sentence a person reads goes through {@link t} (`t("{name} to play", {name})`) or
 * {@link tn} for counts (`tn("{n} point", "{n} points", n)`); `make messages
 * MESSAGE_DOMAINS=web` extracts those calls into the `web` catalogue, whose translations
 * the server serves as JSON (`GET /api/i18n/{lang}`: `{language, plural, messages}`).
 * Fields are `{name}` placeholders, as on the Python side; a sentence is always one whole
 * message with its fields, never glued from translated pieces. Tables of words made when a
 * module loads (before the catalogue is there) mark their English with {@link N_} and
 * translate at use: `t(TITLES[kind])`. Action notation (`take W U G`) is never translated.
 *
 * The language: the cookie `lang` (set by the switch, {@link setLanguage}) when it names
 * one of {@link LANGUAGES}, else the page's `<html lang>`, which the server sets from the browser's
 * `Accept-Language`. {@link loadLanguage} reads the catalogue once, before any page starts
 * (`app.js`); English needs none.
 * @module i18n
 */

/** The languages, each named in its own language (the switch shows these). */
export const LANGUAGES = [
  ["en", "English"], ["fr", "Français"], ["nl", "Nederlands"], ["de", "Deutsch"], ["es", "Español"],
  ["it", "Italiano"], ["pt", "Português"], ["pl", "Polski"],
];

/** The cookie the switch sets: the contract with the server (and the tests). */
export const LANGUAGE_COOKIE = "lang";

const CODES = LANGUAGES.map(([code]) => code);
const YEAR = 365 * 24 * 3600;

/** The catalogue in use: English until {@link loadLanguage} has read another. */
let catalogue = { language: "en", plural: "en", messages: {} };

/** `text` with its `{name}` fields replaced by `fields[name]` (unknown fields are left as they are). */
function fill(text, fields) {
  if (!fields) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (Object.prototype.hasOwnProperty.call(fields, name) ? String(fields[name]) : whole));
}

/**
 * `message` (English) in the reader's language, its `{fields}` filled in.
 * @param {string} message
 * @param {Object<string, any>} [fields]
 * @returns {string}
 */
export function t(message, fields) {
  const text = catalogue.messages[message];
  return fill(typeof text === "string" && text ? text : message, fields);
}

/**
 * The form of `singular` / `plural` (English) for the count `n` in the reader's language:
 * French and Portuguese count 0 and 1 as singular, Polish has three forms (1; 2–4 but not
 * 12–14; the rest), the others only 1 is singular. `{n}` is filled with `n` unless
 * `fields` gives it.
 * @param {string} singular
 * @param {string} plural
 * @param {number} n
 * @param {Object<string, any>} [fields]
 * @returns {string}
 */
export function tn(singular, plural, n, fields) {
  const forms = catalogue.messages[singular];
  const form = pluralForm(catalogue.plural, n);
  const text = Array.isArray(forms) && forms.length > form ? forms[form] : form === 0 ? singular : plural;
  return fill(text, { n, ...(fields || {}) });
}

/**
 * The index of the plural form for the count `n` under a catalogue's rule (`"en"`, `"fr"`
 * or `"pl"`, as the server names them): 0 the singular, 1 the plural (Polish: 1 for 2–4
 * but not 12–14, 2 for the rest).
 * @param {string} rule
 * @param {number} n
 * @returns {number}
 */
export function pluralForm(rule, n) {
  const k = Math.abs(Math.trunc(n));
  if (rule === "fr") return k < 2 ? 0 : 1;
  if (rule === "pl") {
    if (k === 1) return 0;
    return k % 10 >= 2 && k % 10 <= 4 && (k % 100 < 12 || k % 100 > 14) ? 1 : 2;
  }
  return n === 1 ? 0 : 1;
}

/**
 * A translated sentence with elements in it (a name in a `<bdi>`, a button, a link): `text`
 * (from {@link t} or {@link tn}, whose fields not given are left as `{name}`) split into its
 * pieces, each `{name}` of `fields` replaced by its value (a node, or text), in the
 * translation's order, ready for `h()`:
 * `nodes(t("Invitation link: {link}"), { link: box })`.
 * @param {string} text
 * @param {Object<string, any>} fields
 * @returns {Array<string|Node>}
 */
export function nodes(text, fields) {
  const out = [];
  for (const part of String(text).split(/(\{\w+\})/)) {
    const m = /^\{(\w+)\}$/.exec(part);
    if (m && Object.prototype.hasOwnProperty.call(fields, m[1])) {
      const v = fields[m[1]];
      out.push(typeof Node !== "undefined" && v instanceof Node ? v : Array.isArray(v) ? v : String(v));
    } else if (part) out.push(part);
  }
  return out;
}

/**
 * Marks an English message for the catalogue without translating it (for tables of
 * words made when a module loads); translate it where it is shown, with {@link t}.
 * @param {string} message
 * @returns {string} the message itself
 */
export function N_(message) {
  return message;
}

/** The language in use: one of the codes of {@link LANGUAGES}. */
export function language() {
  return catalogue.language;
}

/** The language the cookie `lang` names, or null. */
function cookieLanguage() {
  for (const part of document.cookie.split(";")) {
    const [name, value] = part.trim().split("=");
    if (name === LANGUAGE_COOKIE && CODES.includes(value)) return value;
  }
  return null;
}

/** The reader's language: the cookie's, else the page's `<html lang>` (the server's choice), else English. */
export function wantedLanguage() {
  const page = (document.documentElement.lang || "").toLowerCase().split("-")[0];
  return cookieLanguage() || (CODES.includes(page) ? page : "en");
}

/**
 * Read the catalogue of the reader's language (`GET /api/i18n/{lang}`, cacheable) and set
 * `<html lang>`. Never fails: without a catalogue the English shows.
 * @returns {Promise<string>} the language in use
 */
export async function loadLanguage() {
  const wanted = wantedLanguage();
  if (wanted !== "en") {
    try {
      const resp = await fetch(`/api/i18n/${wanted}`, { credentials: "same-origin", headers: { Accept: "application/json" } });
      const data = resp.ok ? await resp.json() : null;
      if (data && typeof data.messages === "object" && CODES.includes(data.language)) catalogue = data;
    } catch {
      // the English shows
    }
  }
  document.documentElement.lang = catalogue.language;
  return catalogue.language;
}

/**
 * Choose a language: remember it in the cookie `lang` (`path=/`, `SameSite=Lax`, a year)
 * and reload the page in it.
 * @param {string} lang a code of {@link LANGUAGES}
 * @throws {Error} another language
 */
export function setLanguage(lang) {
  if (!CODES.includes(lang)) throw new Error(`unknown language ${lang}: the languages are ${CODES.join(", ")}`);
  document.cookie = `${LANGUAGE_COOKIE}=${lang}; path=/; max-age=${YEAR}; SameSite=Lax`;
  location.reload();
}

/** `text` with its first letter in capitals (a sentence from the server shown on its own). */
export function capitalize(text) {
  const s = String(text || "");
  return s ? s[0].toLocaleUpperCase(catalogue.language) + s.slice(1) : s;
}
