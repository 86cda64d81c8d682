//! A synthetic module generated from a seed: variables, resources, module
//! calls, locals, outputs, about 10 % override files and some JSON files, so
//! the keystroke benchmark has a large module that exercises every merge path.
//! It is a valid module, as real ones mostly are: since the reference rules
//! (2026-11-26), each output indexes the counted resource it reads, which
//! OpenTofu requires (900 outputs reported "Missing resource instance key"
//! before).

use tofu_module::InputFile;

/// A small deterministic generator (xorshift), so the module is the same on
/// every machine without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

pub fn module(n_files: usize, seed: u64) -> Vec<InputFile> {
    let mut rng = Rng(seed.max(1));
    let mut files = Vec::with_capacity(n_files);
    let n_overrides = n_files / 10;
    let n_primary = n_files - n_overrides;
    for i in 0..n_primary {
        let mut text = String::new();
        if i % 20 == 19 {
            let json = format!(
                "{{\n  \"variable\": {{\"json_{i}\": {{\"type\": \"string\", \"default\": \"v{i}\"}}}},\n  \"resource\": {{\"aws_s3_bucket\": {{\"json_{i}\": {{\"bucket\": \"b-{i}\", \"tags\": {{\"n\": \"{i}\"}}}}}}}}\n}}\n"
            );
            files.push(InputFile::text(format!("f{i:04}.tf.json"), json));
            continue;
        }
        text.push_str(&format!(
            "variable \"var_{i}\" {{\n  type        = string\n  default     = \"value-{i}\"\n  description = \"Variable number {i}\"\n}}\n\n"
        ));
        text.push_str(&format!(
            "locals {{\n  local_{i} = \"${{var.var_{i}}}-{}\"\n}}\n\n",
            rng.below(1000)
        ));
        for r in 0..3 {
            text.push_str(&format!(
                "resource \"aws_instance\" \"r_{i}_{r}\" {{\n  ami           = \"ami-{:08x}\"\n  instance_type = var.var_{i}\n  count         = {}\n\n  ebs_block_device {{\n    device_name = \"/dev/sd{}\"\n    volume_size = {}\n  }}\n\n  lifecycle {{\n    ignore_changes = [tags]\n  }}\n\n  tags = {{\n    Name = local.local_{i}\n  }}\n}}\n\n",
                rng.next() & 0xffff_ffff,
                rng.below(3),
                (b'b' + (r as u8)) as char,
                10 + rng.below(100)
            ));
        }
        if i % 5 == 0 {
            text.push_str(&format!(
                "module \"m_{i}\" {{\n  source  = \"terraform-aws-modules/vpc/aws\"\n  version = \"~> 5.{}\"\n  name    = local.local_{i}\n}}\n\n",
                rng.below(9)
            ));
        }
        text.push_str(&format!(
            "output \"out_{i}\" {{\n  value = aws_instance.r_{i}_0[0].id\n}}\n"
        ));
        files.push(InputFile::text(format!("f{i:04}.tf"), text));
    }
    for o in 0..n_overrides {
        let target = (rng.below(n_primary as u64) as usize) / 20 * 20;
        let text = format!(
            "resource \"aws_instance\" \"r_{target}_1\" {{\n  instance_type = \"t3.large\"\n  ebs_block_device {{\n    device_name = \"/dev/sdz\"\n  }}\n}}\n\nvariable \"var_{target}\" {{\n  default = \"overridden-{o}\"\n}}\n\nlocals {{\n  local_{target} = \"over-{o}\"\n}}\n"
        );
        files.push(InputFile::text(format!("o{o:03}_override.tf"), text));
    }
    files
}
