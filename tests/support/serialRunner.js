const TestRunner = require('jest-runner').default;

/**
 * jest's own runner, marked serial: jest runs the files of a project with this runner one at a time, in its
 * main process, and apart from the files of every other runner (it runs each runner's files in turn). The
 * `alone` project's files use it: each loads the whole machine on purpose (a flood in a 256 MB cgroup, a
 * full disk, nginx in front of instances under load), so beside other files they would measure the other
 * files, and the other files' timings would measure them (docs/testing.md).
 */
class SerialRunner extends TestRunner {
  get isSerial() {
    return true;
  }
}

module.exports = SerialRunner;
