//! The arm YAML + URDF loader: input = YAML, a NUL byte, URDF.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let mut parts = data.splitn(2, |&b| b == 0);
    let yaml = parts.next().unwrap_or_default();
    let urdf = parts.next().unwrap_or_default();
    let (Ok(yaml), Ok(urdf)) = (std::str::from_utf8(yaml), std::str::from_utf8(urdf)) else {
        return;
    };
    let _ = gamebot_kinematics::Arm::from_strings(
        Path::new("fuzz.yaml"),
        yaml,
        Path::new("fuzz.urdf"),
        urdf,
    );
});
