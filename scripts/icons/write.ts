// `npm run icons`: rewrites app/icons/sprite.svg from app/icons/names.ts.
import { writeFileSync } from "node:fs";
import { buildSprite, SPRITE_PATH } from "./sprite";

writeFileSync(SPRITE_PATH, buildSprite());
console.log(`${SPRITE_PATH} escrito`);
