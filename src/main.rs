/// See `tikv-jemallocator` in Cargo.toml: why the binary does not use the system's allocator.
#[cfg(all(target_os = "linux", not(target_env = "msvc")))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() -> std::process::ExitCode {
    referee::cli::run()
}
