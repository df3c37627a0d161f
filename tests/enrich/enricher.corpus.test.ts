import { corpusRoots } from '../helpers/temp';
import { describeHeuristicEnrichment } from './enricher.suite';

// Checked by hand: the chunk (found by a phrase in it) is about this model.
const handChecked: [docId: string, phrase: string, model: string][] = [
  ['radxa-docs/e/e20c/getting-started/power-supply.md', 'fixed voltage of 5V / 2A', 'E20C'],
  ['radxa-docs/e/e52c/getting-started/power-supply.md', 'fixed voltage of 5V / 3A', 'E52C'],
  ['radxa-docs/e/e20c/faq.md', 'restore factory settings of iStoreOS', 'E20C'],
  ['radxa-docs/e/e52c/hardware-design/hardware-interface.md', '### microSD Card Slot', 'E52C'],
  ['radxa-docs/rock5/rock5a/getting-started/introduction.md', 'ROCK 5 Model A', 'ROCK 5A'],
  ['radxa-docs/rock5/rock5c/getting-started/introduction.md', 'compact single-board computer', 'ROCK 5C'],
  ['radxa-docs/rock5/rock5c/getting-started/introduction.md', '<td align="center">ROCK 5C Lite</td>', 'ROCK 5C'],
  ['radxa-docs/rock5/rock5b/hardware-design/hardware-interface.md', 'ROCK 5B has no PCIe B Key', 'ROCK 5B+'],
  ['radxa-docs/rock5/rock5b/hardware-design/hardware-interface.md', '### Gigabit Ethernet\n\n- ROCK 5B/5B+', 'ROCK 5B'],
  ['radxa-docs/zero/zero3/accessories/3e-poe-hat.md', '## Precaution', 'ZERO 3E'],
  ['radxa-docs/zero/zero3/accessories/zero3w-antenna.md', 'AP6212 WiFi&BT module', 'ZERO 3W'],
  ['radxa-docs/cubie/a7a/accessories/camera-4k.md', '## Preview the camera', 'Cubie A7A'],
  ['radxa-docs/rock3/e25/accessories/pd-30w.md', 'OUTPUT: 5V/5A', 'E25'],
  ['radxa-docs/som/cm/cm3j/getting-started/interface-usage/cm3j-rpi-cm4-io/usb2-0.md', '### Transmission rate', 'CM3J'],
  ['radxa-docs/dragon/q6a/hardware-use/power-header.md', '#### External power button', 'Dragon Q6A'],
  ['radxa-docs/fogwise/airbox-q900/hardware-design/edl-button.md', '## Entering EDL Mode', 'Fogwise AIRbox Q900'],
  ['esp-dev-kits/md/esp32-s3-devkitc-1/user_guide_v1.0.md', '| 5 V to 3.3 V LDO      |', 'ESP32-S3-DevKitC-1 v1.0'],
  ['esp-dev-kits/md/esp32-s3-devkitc-1/user_guide_v1.1.md', '| 5 V to 3.3 V LDO      |', 'ESP32-S3-DevKitC-1 v1.1'],
  ['esp-dev-kits/md/esp32-s2-kaluga-1/user-guide-esp-lyrat-8311a_v1.3.md', 'ADC/ES7243 and ADC/ES7210 removed', 'ESP-LyraT-8311A v1.3'],
  ['esp-dev-kits/md/esp8684-devkitm-1/user_guide-v1.0.md', 'ESP8684-MINI-1 from Espressif', 'ESP8684-DevKitM-1 v1.0'],
];

describeHeuristicEnrichment(corpusRoots.shared, 600, handChecked);
