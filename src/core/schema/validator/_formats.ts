// Format assertions, hand-written scanners: each reads its string once, so
// no input can make them backtrack. They load apart from the core, the
// first time a schema asserts a format (`../_apart.ts`).

import type { FormatScanners } from "./_format_names.ts";
import { isALabel } from "./_idna.ts";

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function isAlpha(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

function isHex(code: number): boolean {
  return isDigit(code) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
}

/** The number written by `length` digits at `start`, or -1. */
function digits(text: string, start: number, length: number): number {
  if (start + length > text.length) return -1;
  let value = 0;
  for (let i = start; i < start + length; i++) {
    const code = text.charCodeAt(i);
    if (!isDigit(code)) return -1;
    value = value * 10 + code - 0x30;
  }
  return value;
}

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** RFC 3339 full-date. */
export function isDate(text: string): boolean {
  if (text.length !== 10 || text[4] !== "-" || text[7] !== "-") return false;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1) return false;
  return day <= (month === 2 && isLeapYear(year) ? 29 : DAYS[month - 1]);
}

/** RFC 3339 full-time, with a leap second only at 23:59:60 UTC. */
export function isTime(text: string): boolean {
  if (text.length < 9 || text[2] !== ":" || text[5] !== ":") return false;
  const hour = digits(text, 0, 2);
  const minute = digits(text, 3, 2);
  const second = digits(text, 6, 2);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 60) return false;
  let i = 8;
  if (text[i] === ".") {
    const start = ++i;
    while (i < text.length && isDigit(text.charCodeAt(i))) i++;
    if (i === start) return false;
  }
  let offset = 0;
  if (i === text.length - 1 && (text[i] === "Z" || text[i] === "z")) {
    offset = 0;
  } else if (i === text.length - 6 && (text[i] === "+" || text[i] === "-") && text[i + 3] === ":") {
    const offsetHour = digits(text, i + 1, 2);
    const offsetMinute = digits(text, i + 4, 2);
    if (offsetHour < 0 || offsetHour > 23 || offsetMinute < 0 || offsetMinute > 59) return false;
    offset = (offsetHour * 60 + offsetMinute) * (text[i] === "+" ? 1 : -1);
  } else {
    return false;
  }
  if (second === 60) {
    const utc = (((hour * 60 + minute - offset) % 1440) + 1440) % 1440;
    return utc === 23 * 60 + 59;
  }
  return true;
}

/** RFC 3339 date-time. */
export function isDateTime(text: string): boolean {
  const separator = text[10];
  return (separator === "T" || separator === "t") && isDate(text.slice(0, 10)) && isTime(text.slice(11));
}

/**
 * RFC 3339 appendix A duration: `P`, then weeks alone, or date units then
 * `T` and time units, each a run of neighbours in Y M D and H M S order.
 */
export function isDuration(text: string): boolean {
  if (text.length < 3 || text[0] !== "P") return false;
  let i = 1;
  if (text.endsWith("W")) {
    for (; i < text.length - 1; i++) if (!isDigit(text.charCodeAt(i))) return false;
    return true;
  }
  const time = text.indexOf("T");
  const date = time === -1 ? text.slice(1) : text.slice(1, time);
  return isUnitRun(date, "YMD") && (time === -1 || (time < text.length - 1 && isUnitRun(text.slice(time + 1), "HMS")));
}

/** Whether `text` is numbers each followed by a unit of `order`, the units neighbours in that order. */
function isUnitRun(text: string, order: string): boolean {
  let previous = -1;
  let i = 0;
  while (i < text.length) {
    const start = i;
    while (i < text.length && isDigit(text.charCodeAt(i))) i++;
    if (i === start || i === text.length) return false;
    const unit = order.indexOf(text[i++]);
    if (unit === -1 || (previous !== -1 && unit !== previous + 1)) return false;
    previous = unit;
  }
  return true;
}

/** RFC 1123 host name of ASCII labels; an `xn--` label must be a valid A-label (IDNA2008, `./_idna.ts`). */
export function isHostname(text: string): boolean {
  if (text.length === 0 || text.length > 253) return false;
  let labelStart = 0;
  for (let i = 0; i <= text.length; i++) {
    if (i < text.length && text[i] !== ".") {
      const code = text.charCodeAt(i);
      if (!isAlpha(code) && !isDigit(code) && code !== 0x2d) return false;
      continue;
    }
    const length = i - labelStart;
    if (length === 0 || length > 63 || text[labelStart] === "-" || text[i - 1] === "-") return false;
    // "--" in the 3rd and 4th places is reserved for IDNA's "xn--".
    if (length >= 4 && text[labelStart + 2] === "-" && text[labelStart + 3] === "-") {
      if (text.slice(labelStart, labelStart + 2).toLowerCase() !== "xn" || !isALabel(text.slice(labelStart, i))) {
        return false;
      }
    }
    labelStart = i + 1;
  }
  return true;
}

/** Dotted-quad IPv4, no leading zeros. */
export function isIpv4(text: string): boolean {
  let parts = 0;
  let i = 0;
  while (parts < 4) {
    const start = i;
    while (i < text.length && isDigit(text.charCodeAt(i))) i++;
    const length = i - start;
    if (length === 0 || length > 3 || (length > 1 && text[start] === "0")) return false;
    if (Number(text.slice(start, i)) > 255) return false;
    parts++;
    if (parts < 4) {
      if (text[i] !== ".") return false;
      i++;
    }
  }
  return i === text.length;
}

/** RFC 4291 text form, with `::` and a trailing IPv4 allowed; no zone. */
export function isIpv6(text: string): boolean {
  let groups = 0;
  let compressed = false;
  let i = 0;
  if (text.startsWith("::")) {
    compressed = true;
    i = 2;
    if (i === text.length) return true;
  } else if (text[0] === ":") {
    return false;
  }
  while (i < text.length) {
    const start = i;
    while (i < text.length && isHex(text.charCodeAt(i)) && i - start < 5) i++;
    if (text[i] === ".") {
      if (!isIpv4(text.slice(start))) return false;
      groups += 2;
      i = text.length;
      break;
    }
    const length = i - start;
    if (length === 0 || length > 4) return false;
    groups++;
    if (i === text.length) break;
    if (text[i] !== ":") return false;
    i++;
    if (text[i] === ":") {
      if (compressed) return false;
      compressed = true;
      i++;
      if (i === text.length) break;
    } else if (i === text.length) {
      return false;
    }
  }
  return compressed ? groups <= 7 : groups === 8;
}

/** Dot-atom or quoted local part, then a host name or a bracketed address. */
export function isEmail(text: string): boolean {
  const at = text.lastIndexOf("@");
  if (at <= 0 || at === text.length - 1) return false;
  const local = text.slice(0, at);
  const domain = text.slice(at + 1);
  if (local.length >= 2 && local[0] === '"' && local[local.length - 1] === '"') {
    for (let i = 1; i < local.length - 1; i++) {
      const code = local.charCodeAt(i);
      if (code === 0x5c) i++;
      else if (code === 0x22 || code < 0x20 || code > 0x7e) return false;
    }
  } else {
    if (local[0] === "." || local[local.length - 1] === "." || local.includes("..")) return false;
    for (let i = 0; i < local.length; i++) {
      const code = local.charCodeAt(i);
      if (!isAlpha(code) && !isDigit(code) && !"!#$%&'*+-/=?^_`{|}~.".includes(local[i])) return false;
    }
  }
  if (domain.startsWith("[") && domain.endsWith("]")) {
    const literal = domain.slice(1, -1);
    return literal.startsWith("IPv6:") ? isIpv6(literal.slice(5)) : isIpv4(literal);
  }
  return isHostname(domain);
}

/** 8-4-4-4-12 hexadecimal digits. */
export function isUuid(text: string): boolean {
  if (text.length !== 36) return false;
  for (let i = 0; i < 36; i++) {
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (text[i] !== "-") return false;
    } else if (!isHex(text.charCodeAt(i))) return false;
  }
  return true;
}

// RFC 3986 unreserved, sub-delims, ":" and "@": what a path, query or
// fragment may hold besides "/", "?" and percent-encodings.
const PCHAR = new Set("-._~!$&'()*+,;=:@");

/** Whether `text[start, end)` holds only URI characters, valid percent-encodings and `extra`. */
function isUriText(text: string, start: number, end: number, extra: string): boolean {
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (isAlpha(code) || isDigit(code) || PCHAR.has(text[i]) || extra.includes(text[i])) continue;
    if (code === 0x25 && isHex(text.charCodeAt(i + 1)) && isHex(text.charCodeAt(i + 2)) && i + 2 < end) {
      i += 2;
      continue;
    }
    return false;
  }
  return true;
}

/** An RFC 3986 IPvFuture literal: `v`, a version in hex, a dot, then unreserved characters, sub-delims or colons. */
function isIpvFuture(text: string): boolean {
  const dot = text.indexOf(".");
  if ((text[0] !== "v" && text[0] !== "V") || dot < 2 || dot === text.length - 1) return false;
  for (let i = 1; i < dot; i++) if (!isHex(text.charCodeAt(i))) return false;
  // The characters of a path segment but "@" and percent-encoding.
  return !text.includes("@", dot) && !text.includes("%", dot) && isUriText(text, dot + 1, text.length, "");
}

/** An RFC 3986 authority: userinfo, a host (a bracketed IPv6 or IPvFuture, or a name) and a numeric port. */
function isAuthority(text: string): boolean {
  const at = text.indexOf("@");
  if (at !== -1 && !isUriText(text, 0, at, "")) return false;
  let host = text.slice(at + 1);
  if (host.includes("@")) return false;
  if (host.startsWith("[")) {
    const close = host.indexOf("]");
    const literal = host.slice(1, close);
    if (close === -1 || !(isIpv6(literal) || isIpvFuture(literal))) return false;
    host = host.slice(close + 1);
    if (host === "") return true;
    if (host[0] !== ":") return false;
    return digits(host, 1, host.length - 1) >= 0 || host.length === 1;
  }
  const colon = host.indexOf(":");
  if (colon !== -1) {
    const port = host.slice(colon + 1);
    if (port !== "" && digits(port, 0, port.length) < 0) return false;
    host = host.slice(0, colon);
  }
  return isUriText(host, 0, host.length, "");
}

/** An absolute RFC 3986 URI: a scheme, then an authority or a path, a query and a fragment. */
export function isUri(text: string): boolean {
  const colon = text.indexOf(":");
  if (colon < 1 || !isAlpha(text.charCodeAt(0))) return false;
  for (let i = 1; i < colon; i++) {
    const code = text.charCodeAt(i);
    if (!isAlpha(code) && !isDigit(code) && code !== 0x2b && code !== 0x2d && code !== 0x2e) return false;
  }
  return isHierarchy(text, colon + 1);
}

function isHierarchy(text: string, start: number): boolean {
  let end = text.indexOf("#", start);
  if (end === -1) end = text.length;
  else if (!isUriText(text, end + 1, text.length, "/?")) return false;
  const query = text.indexOf("?", start);
  if (query !== -1 && query < end) {
    if (!isUriText(text, query + 1, end, "/?")) return false;
    end = query;
  }
  if (text.startsWith("//", start)) {
    const slash = text.indexOf("/", start + 2);
    const authorityEnd = slash === -1 || slash > end ? end : slash;
    if (!isAuthority(text.slice(start + 2, authorityEnd))) return false;
    start = authorityEnd;
  }
  return isUriText(text, start, end, "/");
}

/** An RFC 3986 URI or relative reference. */
export function isUriReference(text: string): boolean {
  const colon = text.indexOf(":");
  const slash = text.search(/[/?#]/);
  if (colon !== -1 && (slash === -1 || colon < slash)) return isUri(text);
  return isHierarchy(text, 0);
}

/** RFC 6901 JSON Pointer. */
export function isJsonPointer(text: string): boolean {
  if (text !== "" && text[0] !== "/") return false;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "~" && text[i + 1] !== "0" && text[i + 1] !== "1") return false;
  }
  return true;
}

/** A relative JSON Pointer: a non-negative integer, then `#` or a JSON Pointer. */
export function isRelativeJsonPointer(text: string): boolean {
  let i = 0;
  while (i < text.length && isDigit(text.charCodeAt(i))) i++;
  if (i === 0 || (i > 1 && text[0] === "0")) return false;
  const rest = text.slice(i);
  return rest === "#" || isJsonPointer(rest);
}

/** An ECMA-262 regular expression, read with the `u` flag; only compiled, never run. */
export function isRegex(text: string): boolean {
  try {
    new RegExp(text, "u");
    return true;
  } catch {
    return false;
  }
}

/** The scanner of each format in `ASSERTED_FORMATS`, by name. */
export const FORMATS: FormatScanners = {
  "date-time": isDateTime,
  date: isDate,
  time: isTime,
  duration: isDuration,
  email: isEmail,
  hostname: isHostname,
  ipv4: isIpv4,
  ipv6: isIpv6,
  uri: isUri,
  "uri-reference": isUriReference,
  uuid: isUuid,
  "json-pointer": isJsonPointer,
  "relative-json-pointer": isRelativeJsonPointer,
  regex: isRegex,
};
