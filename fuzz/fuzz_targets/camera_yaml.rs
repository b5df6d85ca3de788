//! The camera calibration file loader (config/camera/*.yaml): parse and
//! validate, without OpenCV (gamebot_vision with `default-features = false`).
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = gamebot_input::decode_text("fuzz.yaml", data.to_vec()) {
        if let Ok(c) = gamebot_vision::camera_file::CameraCalibration::parse(
            Path::new("fuzz/camera.yaml"),
            &text,
        ) {
            // What loads is valid: saving and loading again gives the same file.
            let again = serde_yaml::to_string(&c).expect("a valid calibration serialises");
            let back = gamebot_vision::camera_file::CameraCalibration::parse(
                Path::new("fuzz/camera.yaml"),
                &again,
            )
            .expect("a saved calibration loads");
            assert_eq!(back, c);
        }
    }
});
