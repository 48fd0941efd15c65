//! Mounts made for a test (`mount --bind`, a tmpfs), lazily unmounted when
//! the test ends. Mounting needs root or a user namespace that allows it:
//! a test skips, with a message, where it fails.

/// Mounts made for a test, lazily unmounted when it ends.
#[derive(Debug, Default)]
pub(crate) struct Mounts(Vec<String>);

impl Mounts {
    /// Runs `mount ARGS... AT`; false if mounting is not allowed here.
    pub(crate) fn mount(&mut self, args: &[&str], at: &str) -> bool {
        let ok = std::process::Command::new("mount")
            .args(args)
            .arg(at)
            .output()
            .is_ok_and(|out| out.status.success());
        if ok {
            self.0.push(at.to_owned());
        }
        ok
    }
}

impl Drop for Mounts {
    fn drop(&mut self) {
        for at in self.0.iter().rev() {
            let _ = std::process::Command::new("umount")
                .arg("-l")
                .arg(at)
                .status();
        }
    }
}
