resource foo_instance foo {
}
resource "foo_instance" /* dropped */ "bar" /* kept */ {
}
r "a\tb" "\u00e9" "e\u0301" "\u00a0" "\U0001F600" "a\\b" "q\"q" {}
r "x" "a$b" "100%" "$" "y" {}
r /* no labels */ {
}
outer "x" {
  inner y {}
}
provider "" {
}
