//! Helpers shared by the test binaries `cli` and `library`: each includes this module once
//! (`#[path = "../support/mod.rs"] mod support;`) and uses what it needs.
#![allow(dead_code)]

pub mod cli;
pub mod common;
pub mod count_support;
pub mod game_tree;
pub mod games;
