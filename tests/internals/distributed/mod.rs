mod file;
mod plan;
