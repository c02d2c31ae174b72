/** Root hooks of the emulator tier: the shared emulator is stopped however the run ends. */
import { stopSharedEmulator } from './emulatorSupport';

export const mochaHooks = {
  async afterAll(): Promise<void> {
    await stopSharedEmulator();
  },
};
