/**
 * The ring core and host API: wire descriptors, publishing and retiring, the {@code Megakernel},
 * tenants, slot programs, the DFA_STEP built-in, and the SPI that backends implement.
 */
module dev.vyre.runtime {
  requires transitive dev.vyre.driver;

  exports dev.vyre.runtime;
  exports dev.vyre.runtime.dfa;
  exports dev.vyre.runtime.program;
  exports dev.vyre.runtime.spi;
  exports dev.vyre.runtime.tenant;
  exports dev.vyre.runtime.wave;
  exports dev.vyre.runtime.wire;

  uses dev.vyre.runtime.spi.MegakernelBackend;
  uses dev.vyre.runtime.spi.DoctorProbe;
}
