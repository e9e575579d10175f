#!/usr/bin/env python3
"""Lists the functions whose definitions run over a line limit.

Issue 18 asks for no function over ~100 lines without a reason. This scans
C++ sources (.cc by default), finds every function defined at namespace level
or inside a class body by matching braces (comments, string and character
literals and preprocessor lines are blanked first), and prints

    path:line name length

for each definition longer than --limit lines, counted from the line with the
function's name to its closing brace. A function listed in the allow-list
file (one `path name reason` a line; the reason is required) is printed with
its reason and does not fail the check.

Exit status: 1 if a function over the limit is not allowed, else 0; with
--report always 0 (CI prints the list without failing on it). 2 on a usage
error (e.g. an allow-list entry without a reason).

    tools/dev/long_functions.py                  # libs services tools
    tools/dev/long_functions.py --limit 70 libs/eventlog
    tools/dev/long_functions.py --report
"""

import argparse
import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
DEFAULT_ROOTS = ("libs", "services", "tools")
DEFAULT_ALLOW = os.path.join(REPO, "tools", "dev", "long_functions_allow.txt")

_RAW_STRING = re.compile(r'R"([^()\\\s]{0,16})\(')


def blank(text):
    """Returns text with comments, literals and preprocessor lines replaced
    by spaces (newlines kept), so that braces and parentheses in them do not
    count and every offset keeps its line."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c in " \t":
            out.append(c)
            i += 1
            continue
        if line_start and c == "#":
            # A directive, with its continuation lines.
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append(" \n")
                    i += 2
                    continue
                out.append(" ")
                i += 1
            continue
        line_start = False
        if c == "\n":
            line_start = True
            out.append(c)
            i += 1
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                out.append(" ")
                i += 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
        elif c == "R" and _RAW_STRING.match(text, i) and (
                i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")
                or text[i - 2:i] == "u8" or text[i - 1] in "uUL"):
            m = _RAW_STRING.match(text, i)
            close = ")" + m.group(1) + '"'
            end = text.find(close, m.end())
            end = n if end < 0 else end + len(close)
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
        elif c == '"' or (c == "'" and not (i > 0 and text[i - 1].isdigit())):
            # A string or character literal (a quote after a digit is a
            # digit separator: 100'000).
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            end = min(j + 1, n)
            out.append(" " * (end - i))
            i = end
        else:
            out.append(c)
            i += 1
    return "".join(out)


_ACCESS = re.compile(r"^\s*(?:(?:public|private|protected)\s*:(?!:)\s*)+")
_TEMPLATE = re.compile(r"^\s*template\s*<")
_CLASS = re.compile(r"^\s*(?:typedef\s+)?(?:class|struct|union|enum)\b")
_NAME = re.compile(r"(~?[A-Za-z_]\w*(?:\s*::\s*~?[A-Za-z_]\w*)*"
                   r"|operator\s*(?:\(\s*\)|\[\s*\]|[^\s(\w][^\s(]*"
                   r"|\w[\w:<>\s*&]*?))\s*$")


def skip_template_prefix(header):
    """Drops leading `template <...>` clauses."""
    while True:
        m = _TEMPLATE.match(header)
        if not m:
            return header
        depth, i = 1, m.end()
        while i < len(header) and depth:
            depth += {"<": 1, ">": -1}.get(header[i], 0)
            i += 1
        header = header[i:]


def first_call(header):
    """Offset of the first '(' outside <...> and the index of its ')', or
    None."""
    angle = 0
    for i, c in enumerate(header):
        if c == "<":
            angle += 1
        elif c == ">" and angle:
            angle -= 1
        elif c == "(" and angle == 0:
            depth = 0
            for j in range(i, len(header)):
                if header[j] == "(":
                    depth += 1
                elif header[j] == ")":
                    depth -= 1
                    if depth == 0:
                        return i, j
            return None
    return None


def classify(header):
    """What a '{' at namespace or class level opens, from the text since the
    last declaration ended: ('namespace'|'class'|'init'|'other', None) or
    ('function', name). 'init' braces belong to the declaration being read
    (a default argument, a member initializer); 'other' ones end one."""
    h = _ACCESS.sub(lambda m: " " * len(m.group(0)), header)
    if h.count("(") > h.count(")"):
        return "init", None  # inside a declaration: `Foo(Options o = {})`
    if re.search(r"\bnamespace\b", h) or re.match(r'^\s*extern\s+"', header):

        return "namespace", None
    body = skip_template_prefix(h)
    if _CLASS.match(body):
        return "class", None
    call = first_call(h)
    if call is None:
        return "other", None  # e.g. a braced initializer
    open_paren, close_paren = call
    before = h[:open_paren]
    if "=" in re.sub(r"operator\s*\S+", "", before):
        return "other", None  # a variable's initializer or a lambda
    m = _NAME.search(before)
    if not m:
        return "other", None
    after = h[close_paren + 1:]
    # A member-initializer list: `) : a_(x), b_{y} {`. A '{' right after a
    # name in it opens an initializer, not the body.
    if re.match(r"[^:]*(?<!:):(?!:)", after) and re.search(r"[\w>]\s*$", h):
        return "init", None
    name = re.sub(r"\s+", "", m.group(1))
    if re.fullmatch(r"[A-Z][A-Z0-9_]{3,}", name):
        # A macro that defines a function: TEST(Suite, Name) {
        name += re.sub(r"\s+", "", h[open_paren:close_paren + 1])
    return "function", name



def functions(text):
    """Yields (name, first line, last line) of every function defined at
    namespace level or in a class body."""
    b = blank(text)
    # Scope stack entries: [kind, header_start].
    stack = [["namespace", 0]]
    i, n = 0, len(b)
    while i < n:
        c = b[i]
        top = stack[-1]
        if top[0] in ("namespace", "class"):
            if c == ";":
                top[1] = i + 1
            elif c == "{":
                header = b[top[1]:i]
                kind, name = classify(header)
                if kind == "function":
                    name_at = top[1] + first_call(header)[0]

                    end = match_brace(b, i)
                    yield name, b.count("\n", 0, name_at) + 1, \
                        b.count("\n", 0, end) + 1
                    i = end + 1
                    top[1] = i
                    continue
                if kind == "init":
                    i = match_brace(b, i) + 1
                    continue
                if kind == "other":
                    i = match_brace(b, i) + 1
                    top[1] = i
                    continue
                stack.append([kind, i + 1])
            elif c == "}":
                if len(stack) > 1:
                    stack.pop()
                stack[-1][1] = i + 1
        i += 1


def match_brace(b, i):
    depth = 0
    for j in range(i, len(b)):
        if b[j] == "{":
            depth += 1
        elif b[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return len(b) - 1


def load_allow(path):
    allowed = {}
    if not path or not os.path.exists(path):
        return allowed
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(None, 2)
            if len(parts) < 3:
                print(f"{path}:{number}: want `path name reason`",
                      file=sys.stderr)
                sys.exit(2)
            allowed[(parts[0], parts[1])] = parts[2]
    return allowed


def shown(path):
    """`path` relative to the repository when inside it (as the allow-list
    names files), else as given."""
    rel = os.path.relpath(os.path.abspath(path), REPO)
    return path if rel.startswith("..") else rel


def sources(roots, suffixes, skip_tests):
    for root in roots:
        if os.path.isfile(root):
            yield root
            continue
        for d, dirs, files in os.walk(root):
            dirs[:] = sorted(x for x in dirs if not x.startswith(("build", ".")))
            for f in sorted(files):
                if not f.endswith(suffixes):
                    continue
                if skip_tests and re.search(r"_test\.\w+$", f):
                    continue
                yield os.path.normpath(os.path.join(d, f))


def main(argv):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("roots", nargs="*",
                        default=[os.path.join(REPO, r) for r in DEFAULT_ROOTS],
                        help="files or directories (default: the "
                        "repository's libs services tools)")
    parser.add_argument("--limit", type=int, default=100,
                        help="longest definition allowed, in lines "
                        "(default 100)")
    parser.add_argument("--allow", default=DEFAULT_ALLOW,
                        help="allow-list file (default: %(default)s)")
    parser.add_argument("--headers", action="store_true",
                        help="scan .h files too")
    parser.add_argument("--no-tests", action="store_true",
                        help="skip *_test.cc files")
    parser.add_argument("--report", action="store_true",
                        help="print the list, never fail")
    args = parser.parse_args(argv)

    allowed = load_allow(args.allow)
    suffixes = (".cc", ".h") if args.headers else (".cc",)
    failing = 0
    for path in sources(args.roots, suffixes, args.no_tests):
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        where = shown(path)
        for name, first, last in functions(text):
            length = last - first + 1
            if length <= args.limit:
                continue
            reason = allowed.get((where, name))
            if reason is None:
                failing += 1
                print(f"{where}:{first} {name} {length}")
            else:
                print(f"{where}:{first} {name} {length} (allowed: {reason})")
    if failing and not args.report:
        print(f"{failing} function(s) over {args.limit} lines; split them "
              f"into named steps or list them with a reason in "
              f"{shown(args.allow)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
