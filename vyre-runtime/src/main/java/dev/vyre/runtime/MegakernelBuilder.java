package dev.vyre.runtime;

import dev.vyre.driver.error.InputException;
import dev.vyre.runtime.spi.KernelSpec;
import dev.vyre.runtime.spi.MegakernelBackend;
import dev.vyre.runtime.spi.UserOpcode;
import dev.vyre.runtime.wire.ControlLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Bootstrap options of a {@link Megakernel}; {@link #bootstrap()} launches it. */
public final class MegakernelBuilder {
  MegakernelBackend backend;
  String backendReason = "given";
  int slots = 4096;
  int tenants = 1;
  int observables = 64;
  int[] priorityOffsets;
  final List<UserOpcode> userOpcodes = new ArrayList<>();
  int workers;
  Duration publishTimeout = Duration.ofSeconds(10);
  Duration stallTimeout = Duration.ofSeconds(30);
  int device = KernelSpec.DEFAULT_DEVICE;

  MegakernelBuilder() {}

  /** {@code auto}, {@code reference}, {@code cuda}: see {@link Backends#select}. */
  public MegakernelBuilder backend(String name) {
    return backend(Backends.select(name));
  }

  /** A backend already chosen by {@link Backends#select}, keeping the reason it was chosen. */
  public MegakernelBuilder backend(Backends.Choice choice) {
    this.backend = choice.backend();
    this.backendReason = choice.reason();
    return this;
  }

  public MegakernelBuilder backend(MegakernelBackend value) {
    this.backend = value;
    this.backendReason = "given";
    return this;
  }

  /** Ring slots, split over the priority partitions. */
  public MegakernelBuilder slots(int value) {
    this.slots = value;
    return this;
  }

  /** Tenants 0..n-1 are authorized at start; n ≤ 29. */
  public MegakernelBuilder tenants(int value) {
    this.tenants = value;
    return this;
  }

  public MegakernelBuilder observables(int value) {
    this.observables = value;
    return this;
  }

  /** Explicit partition offsets (six words, non-decreasing, last = slots); default is vyre's split. */
  public MegakernelBuilder priorityOffsets(int... offsets) {
    this.priorityOffsets = offsets.clone();
    return this;
  }

  /** Gives the whole ring to one priority level (all work at that level). */
  public MegakernelBuilder singlePriority(Priority level) {
    int[] offsets = new int[ControlLayout.PRIORITY_OFFSETS_SLOTS];
    for (int p = level.level() + 1; p < offsets.length; p++) {
      offsets[p] = -1;
    }
    this.priorityOffsets = offsets;
    return this;
  }

  public MegakernelBuilder userOpcode(UserOpcode opcode) {
    userOpcodes.add(opcode);
    return this;
  }

  /** Worker threads on the reference backend (0 = one per spare core). */
  public MegakernelBuilder workers(int value) {
    this.workers = value;
    return this;
  }

  /** How long a publisher waits for ring space before {@code QueueFull}; zero fails at once. */
  public MegakernelBuilder publishTimeout(Duration value) {
    this.publishTimeout = value;
    return this;
  }

  /** How long in-flight work may make no progress before the watchdog tears the kernel down. */
  public MegakernelBuilder stallTimeout(Duration value) {
    this.stallTimeout = value;
    return this;
  }

  /**
   * The device the kernel runs on, overriding the backend's default (CUDA: {@code VYRE_CUDA_DEVICE},
   * else 0), so that kernels in one process can run on different GPUs, each with its own context,
   * ring and resources. The reference backend takes any ordinal as a label: every one of its
   * "devices" is this machine's CPU (docs/MULTI-GPU.md).
   */
  public MegakernelBuilder device(int ordinal) {
    if (ordinal < 0) {
      throw InputException.of("device", "device " + ordinal + " is not a device ordinal",
          "pass 0, 1, ... (`vyre doctor` lists the devices)");
    }
    this.device = ordinal;
    return this;
  }

  public Megakernel bootstrap() {
    if (backend == null) {
      backend("auto");
    }
    return new Megakernel(this);
  }
}
