"""The perf-context series workshop: build, boot, judge (docs/harness.md)."""
