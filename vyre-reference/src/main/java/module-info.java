/** The CPU reference backend: Java threads running the megakernel's protocol over the same bytes. */
module dev.vyre.reference {
  requires transitive dev.vyre.runtime;

  exports dev.vyre.reference;

  provides dev.vyre.runtime.spi.MegakernelBackend with dev.vyre.reference.ReferenceBackend;
}
