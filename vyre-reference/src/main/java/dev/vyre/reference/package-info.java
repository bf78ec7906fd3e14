/**
 * The CPU reference backend: the megakernel protocol run by Java threads over the same bytes as the
 * GPU (docs/DESIGN.md, "One protocol, two backends"). {@link dev.vyre.reference.ReferenceBackend} is
 * the {@link dev.vyre.runtime.spi.MegakernelBackend} service; it is always available, so everything can
 * be tried and tested without a GPU.
 */
package dev.vyre.reference;
