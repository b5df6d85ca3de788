//! Camera frames for the page: a `sensor_msgs/Image` to JPEG. Pure.

use gamebot_interfaces::sensor_msgs::Image;
use image::codecs::jpeg::JpegEncoder;
use image::ExtendedColorType;

/// Why a frame could not be turned into a JPEG.
#[derive(Debug, thiserror::Error)]
pub enum FrameError {
    #[error("image encoding `{0}` is not supported (rgb8, bgr8, mono8, rgba8, bgra8 are)")]
    Encoding(String),
    #[error("image of {width}x{height} with step {step} needs {need} bytes, has {have}")]
    Size {
        width: u32,
        height: u32,
        step: u32,
        need: usize,
        have: usize,
    },
    #[error("JPEG: {0}")]
    Jpeg(#[from] image::ImageError),
}

/// Encodes a frame as JPEG (quality 0–100).
pub fn to_jpeg(img: &Image, quality: u8) -> Result<Vec<u8>, FrameError> {
    let (channels, order): (usize, &[usize]) = match img.encoding.as_str() {
        "rgb8" => (3, &[0, 1, 2]),
        "bgr8" => (3, &[2, 1, 0]),
        "rgba8" => (4, &[0, 1, 2]),
        "bgra8" => (4, &[2, 1, 0]),
        "mono8" | "8UC1" => (1, &[0, 0, 0]),
        other => return Err(FrameError::Encoding(other.to_string())),
    };
    let (w, h) = (img.width as usize, img.height as usize);
    let step = img.step as usize;
    let need = if h == 0 {
        0
    } else {
        step * (h - 1) + w * channels
    };
    if step < w * channels || img.data.len() < need || w == 0 || h == 0 {
        return Err(FrameError::Size {
            width: img.width,
            height: img.height,
            step: img.step,
            need,
            have: img.data.len(),
        });
    }
    let mut rgb = Vec::with_capacity(w * h * 3);
    for row in 0..h {
        let line = &img.data[row * step..row * step + w * channels];
        for px in line.chunks_exact(channels) {
            rgb.extend(order.iter().map(|&i| px[i]));
        }
    }
    let mut out = Vec::with_capacity(w * h / 4);
    JpegEncoder::new_with_quality(&mut out, quality.clamp(1, 100)).encode(
        &rgb,
        img.width,
        img.height,
        ExtendedColorType::Rgb8,
    )?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(encoding: &str, w: u32, h: u32, ch: u32) -> Image {
        Image {
            width: w,
            height: h,
            encoding: encoding.into(),
            step: w * ch,
            data: (0..w * h * ch).map(|i| (i % 251) as u8).collect(),
            ..Default::default()
        }
    }

    #[test]
    fn encodes_and_decodes_back_to_the_same_size() {
        for (enc, ch) in [("rgb8", 3), ("bgr8", 3), ("mono8", 1), ("bgra8", 4)] {
            let jpeg = to_jpeg(&frame(enc, 64, 48, ch), 80).unwrap();
            assert_eq!(&jpeg[..2], &[0xFF, 0xD8], "{enc}");
            let back =
                image::load_from_memory_with_format(&jpeg, image::ImageFormat::Jpeg).unwrap();
            assert_eq!((back.width(), back.height()), (64, 48));
        }
    }

    #[test]
    fn red_stays_red() {
        let mut img = frame("bgr8", 16, 16, 3);
        for px in img.data.chunks_exact_mut(3) {
            px.copy_from_slice(&[0, 0, 255]); // BGR red
        }
        let jpeg = to_jpeg(&img, 90).unwrap();
        let back = image::load_from_memory_with_format(&jpeg, image::ImageFormat::Jpeg)
            .unwrap()
            .to_rgb8();
        let p = back.get_pixel(8, 8);
        assert!(p[0] > 200 && p[1] < 60 && p[2] < 60, "{p:?}");
    }

    #[test]
    fn bad_frames_are_errors() {
        let mut short = frame("rgb8", 10, 10, 3);
        short.data.truncate(50);
        assert!(matches!(to_jpeg(&short, 80), Err(FrameError::Size { .. })));
        assert!(matches!(
            to_jpeg(&frame("yuv422", 4, 4, 2), 80),
            Err(FrameError::Encoding(_))
        ));
        assert!(to_jpeg(&frame("rgb8", 0, 0, 3), 80).is_err());
    }
}
