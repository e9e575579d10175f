#!/usr/bin/env python3
"""Tests of tools/dev/long_functions.py: which braces open a function, and
how long its definition is."""

import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import long_functions  # noqa: E402

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      "long_functions.py")


def found(code):
    return [(name, first, last - first + 1)
            for name, first, last in long_functions.functions(
                textwrap.dedent(code))]


class FunctionsTest(unittest.TestCase):

    def test_namespace_level_and_class_members(self):
        self.assertEqual(found("""\
            namespace a::b {
            namespace {
            int One() {
              return 1;
            }
            }  // namespace
            class C : public D {
             public:
              void Two() const override { if (x) { y(); } }
             private:
              struct E { int f; };
            };
            absl::StatusOr<std::vector<int>> C::Three(int n) {
              return {};
            }
            }  // namespace a::b
            """), [("One", 3, 3), ("Two", 9, 1), ("C::Three", 13, 3)])

    def test_braces_that_open_no_function(self):
        self.assertEqual(found("""\
            const std::map<int, int> kTable = {
                {1, 2},
            };
            constexpr Limits kLimits{1, 2};
            auto kLambda = [](int x) {
              return x;
            };
            enum class Kind { kA, kB };
            int After() { return 0; }
            """), [("After", 9, 1)])

    def test_default_arguments_and_initializer_lists(self):
        self.assertEqual(found("""\
            Foo::Foo(Options options = {}, int n = 0)
                : a_(n), b_{options.b}, c_{{1, 2}} {
              Start();
            }
            void Bar(Options o = {}) {
            }
            """), [("Foo::Foo", 1, 4), ("Bar", 5, 2)])

    def test_comments_literals_and_directives_hide_their_braces(self):
        self.assertEqual(found("""\
            // a comment with { an open brace
            /* and { another */
            #define OPEN {
            int F() {
              const char* s = "}";
              const char c = '}';
              const char* r = R"x(})x";
              int64_t big = 1'000'000;
              return 0;
            }
            """), [("F", 4, 7)])

    def test_test_macros_are_named_with_their_arguments(self):
        self.assertEqual(found("""\
            TEST_F(Suite, Name) {
              EXPECT_TRUE(true);
            }
            """), [("TEST_F(Suite,Name)", 1, 3)])


class CommandTest(unittest.TestCase):

    def run_on(self, code, allow=None, *flags):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "f.cc")
            with open(path, "w") as f:
                f.write(code)
            allow_path = os.path.join(d, "allow.txt")
            with open(allow_path, "w") as f:
                f.write(allow(path) if allow else "")
            return subprocess.run(
                [sys.executable, SCRIPT, "--limit", "3", "--allow",
                 allow_path, *flags, path],
                capture_output=True, text=True)

    LONG = "int Long() {\n  a();\n  b();\n  c();\n}\nint Short() { return 0; }\n"

    def test_a_long_function_fails_unless_allowed_or_reported(self):
        r = self.run_on(self.LONG)
        self.assertEqual(r.returncode, 1)
        self.assertRegex(r.stdout, r"f\.cc:1 Long 5\n")
        self.assertNotIn("Short", r.stdout)
        self.assertEqual(self.run_on(self.LONG, None, "--report").returncode, 0)
        r = self.run_on(self.LONG, lambda p: f"{p} Long a table of data\n")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("(allowed: a table of data)", r.stdout)

    def test_an_allowance_needs_a_reason(self):
        r = self.run_on(self.LONG, lambda p: f"{p} Long\n")
        self.assertEqual(r.returncode, 2)
        self.assertIn("want `path name reason`", r.stderr)


if __name__ == "__main__":
    unittest.main()
