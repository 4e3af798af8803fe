// Image headers declaring any size (the pixels are not there: the header is what is checked).

/** PNG signature and an IHDR chunk declaring width × height (no pixel data: the header is what counts). */
export function pngOf(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write("IHDR", 4, "latin1");
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  ihdr.set([8, 6, 0, 0, 0], 16);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr]);
}

/** A GIF whose logical screen is `screen` and whose one frame sits at `frame` (left, top, width, height). */
export function gifOf(screen: [number, number], frame: [number, number, number, number], extension = true): Buffer {
  const head = Buffer.alloc(13);
  head.write("GIF89a", 0, "latin1");
  head.writeUInt16LE(screen[0], 6);
  head.writeUInt16LE(screen[1], 8);
  head[10] = 0x80; // global colour table of 2 entries
  const colours = Buffer.from([0, 0, 0, 255, 255, 255]);
  // Graphic control extension (its sub-block must be skipped, not read as a frame).
  const gce = extension ? Buffer.from([0x21, 0xf9, 0x04, 0x01, 0x00, 0x00, 0x00, 0x00]) : Buffer.alloc(0);
  const descriptor = Buffer.alloc(10);
  descriptor[0] = 0x2c;
  frame.forEach((v, i) => descriptor.writeUInt16LE(v, 1 + 2 * i));
  const data = Buffer.from([0x02, 0x02, 0x44, 0x01, 0x00]);
  return Buffer.concat([head, colours, gce, descriptor, data, Buffer.from([0x3b])]);
}

/** A JPEG: SOI, an Exif APP1 hiding a small frame header (a thumbnail), then the real SOF2. */
export function jpegOf(width: number, height: number): Buffer {
  const thumb = Buffer.from([0xff, 0xc0, 0x00, 0x0b, 0x08, 0x00, 0x01, 0x00, 0x01, 0x01, 0x01, 0x11, 0x00]);
  const app1 = Buffer.concat([Buffer.from([0xff, 0xe1, 0x00, 2 + 6 + thumb.length]), Buffer.from("Exif\0\0", "latin1"), thumb]);
  const sof = Buffer.from([0xff, 0xc2, 0x00, 0x0b, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x01, 0x01, 0x11, 0x00]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app1, Buffer.from([0xff, 0xff]), sof, Buffer.from([0xff, 0xda, 0x00, 0x02, 0xff, 0xd9])]);
}
