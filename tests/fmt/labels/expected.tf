resource "foo_instance" "foo" {
}
resource "foo_instance" "bar" /* kept */ {
}
r "a\tb" "é" "é" "\u00a0" "😀" "a\\b" "q\"q" {}
r "x" "$" "y" {}
r /* no labels */ {
}
outer "x" {
  inner "y" {}
}
provider "" {
}
