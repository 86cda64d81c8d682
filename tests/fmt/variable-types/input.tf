variable "a" {
  type = "string"
}
variable "b" {
  type = "list"
}
variable "c" {
  type = "map"
}
variable "d" {
  type = list
}
variable "e" {
  type = map # comment
}
variable "f" {
  type = set
}
variable "g" { type = "string" }
variable "h" {
  type = "${list}"
}
variable "i" {
  type = "set"
}
variable "j" {
  type = list(string)
}
variable "k" {
  type    = tuple
  default = "${x}"
}
variable "l" {
  nested {
    type = list
  }
}
module "m" {
  type = list
}
