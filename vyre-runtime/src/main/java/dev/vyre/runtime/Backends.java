package dev.vyre.runtime;

import dev.vyre.driver.error.InputException;
import dev.vyre.runtime.spi.Availability;
import dev.vyre.runtime.spi.MegakernelBackend;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

/** The backend registry: every {@link MegakernelBackend} on the class path, and how {@code auto} picks one. */
public final class Backends {

  /** The chosen backend and, in words, why it was chosen. */
  public record Choice(MegakernelBackend backend, String reason) {}

  private Backends() {}

  /** All registered backends, highest precedence first. */
  public static List<MegakernelBackend> all() {
    List<MegakernelBackend> backends = new ArrayList<>();
    ServiceLoader.load(MegakernelBackend.class).forEach(backends::add);
    backends.sort(Comparator.comparingInt(MegakernelBackend::precedence).reversed());
    return backends;
  }

  /**
   * Resolves {@code auto}, {@code reference}, {@code cuda} (or any registered name). {@code auto}
   * takes the usable backend with the highest precedence and says why the others were passed over.
   */
  public static Choice select(String name) {
    List<MegakernelBackend> backends = all();
    if (name == null || name.equalsIgnoreCase("auto")) {
      StringBuilder skipped = new StringBuilder();
      for (MegakernelBackend backend : backends) {
        Availability availability = backend.availability();
        if (availability.usable()) {
          return new Choice(backend, "auto chose " + backend.name() + " (" + availability.detail() + ")" + skipped);
        }
        skipped.append("; ").append(backend.name()).append(" unusable: ").append(availability.detail());
      }
      throw InputException.of("--backend", "no usable backend" + skipped, "make sure vyre-reference is on the class path");
    }
    for (MegakernelBackend backend : backends) {
      if (backend.name().equalsIgnoreCase(name)) {
        Availability availability = backend.availability();
        if (!availability.usable()) {
          // The detail ends with its own Fix; one message carries one, so it leads the hint.
          String detail = availability.detail();
          int fix = detail.indexOf(". Fix: ");
          String problem = fix < 0 ? detail : detail.substring(0, fix);
          String hint = fix < 0 ? "" : detail.substring(fix + ". Fix: ".length()).replaceFirst("\\.$", "") + "; or ";
          throw InputException.of("--backend", "backend " + backend.name() + " is unusable here: " + problem,
              hint + "run `vyre doctor` for details, or use --backend reference");
        }
        return new Choice(backend, name + " requested");
      }
    }
    throw InputException.of("--backend", "unknown backend \"" + name + "\"",
        "use auto or one of " + backends.stream().map(MegakernelBackend::name).toList());
  }

  /**
   * The device ordinals {@code --devices} names on {@code backend}: {@code all} (every usable
   * device, in order) or a comma-separated list ({@code 0,2}) of distinct ordinals, in the order
   * given. An ordinal the backend does not have fails when its kernel starts, saying why; the
   * reference backend takes any as a label of the CPU.
   */
  public static List<Integer> devices(MegakernelBackend backend, String spec) {
    if (spec.strip().equalsIgnoreCase("all")) {
      List<Availability> devices = backend.devices();
      List<Integer> usable = new ArrayList<>();
      for (int ordinal = 0; ordinal < devices.size(); ordinal++) {
        if (devices.get(ordinal).usable()) {
          usable.add(ordinal);
        }
      }
      if (usable.isEmpty()) {
        throw InputException.of("--devices", "backend " + backend.name() + " has no usable device",
            "run `vyre doctor` to see why");
      }
      return usable;
    }
    List<Integer> ordinals = new ArrayList<>();
    for (String part : spec.split(",", -1)) {
      int ordinal;
      try {
        ordinal = Integer.parseInt(part.strip());
      } catch (NumberFormatException e) {
        ordinal = -1;
      }
      if (ordinal < 0 || ordinals.contains(ordinal)) {
        throw InputException.of("--devices", "\"" + spec + "\" is not all or a list of distinct device ordinals"
            + " (\"" + part.strip() + "\")", "pass all, or ordinals such as 0,2 (`vyre doctor` lists the devices)");
      }
      ordinals.add(ordinal);
    }
    return ordinals;
  }
}
