import { corpusRoots } from '../helpers/temp';
import { describeVocabularyOnBoards } from './vocabulary.suite';

describeVocabularyOnBoards(
  corpusRoots.shared,
  [
    ['radxa-docs/e/e20c/getting-started/power-supply.md', 'E20C'],
    ['radxa-docs/e/e52c/getting-started/power-supply.md', 'E52C'],
    ['radxa-docs/rock5/rock5a/getting-started/introduction.md', 'ROCK 5A'],
    ['radxa-docs/rock5/rock5c/getting-started/introduction.md', 'ROCK 5C'],
    ['radxa-docs/zero/zero3/faq.md', 'ZERO 3'],
    ['radxa-docs/cubie/a7a/README.md', 'Cubie A7A'],
    ['radxa-docs/fogwise/airbox-q900/README.md', 'Fogwise AIRbox Q900'],
    ['radxa-docs/fogwise/airbox/getting-started/preparation.md', 'Fogwise AirBox'],
    ['radxa-docs/som/cm/cm3j/getting-started/interface-usage/cm3j-rpi-cm4-io/usb2-0.md', 'CM3J'],
    ['esp-dev-kits/md/esp32-s3-devkitc-1/user_guide_v1.0.md', 'ESP32-S3-DevKitC-1 v1.0'],
    ['esp-dev-kits/md/esp32-c61-devkitc-1/user_guide.md', 'ESP32-C61-DevKitC-1 v2.0'],
    ['esp-dev-kits/md/esp32-s2-kaluga-1/user-guide-esp-lyrat-8311a_v1.3.md', 'ESP-LyraT-8311A v1.3'],
  ],
  76,
);
