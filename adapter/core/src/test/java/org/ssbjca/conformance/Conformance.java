package org.ssbjca.conformance;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.ArgumentsProvider;
import org.ssbjca.backend.portable.PortableOptions;
import org.ssbjca.tiers.TestTier;

/**
 * The backends of the conformance suite: every {@link BackendTest} runs once per backend, and on PostgreSQL once per
 * {@link PlannerState} (never analysed, analysed empty, analysed with traffic), since a statement's plan, and so its
 * behaviour if it depended on the plan, changes with the statistics. Each database is started once per JVM, on first
 * use; a backend that cannot run here (SQL Server without Docker) is reported once, on one
 * line, and its runs are skipped. A run that leaves a backend out ({@link TestTier}: the fast tier runs H2 only) has no
 * runs on it.
 */
public final class Conformance implements ArgumentsProvider {

    /** What this test reports (figures, or why a backend is skipped). */
    private static final java.util.logging.Logger FIGURES =
            java.util.logging.Logger.getLogger(Conformance.class.getName());

    /** Short fallback poll and housekeeping intervals, so that timer and lifetime tests finish quickly. */
    static final long PORTABLE_OPTIONS_FALLBACK_POLL_MILLIS = 200;
    static final long PORTABLE_OPTIONS_HOUSEKEEPING_MILLIS = 100;
    static final PortableOptions PORTABLE_OPTIONS = new PortableOptions(PORTABLE_OPTIONS_FALLBACK_POLL_MILLIS,
            PORTABLE_OPTIONS_HOUSEKEEPING_MILLIS, Clock.systemUTC());

    private static final List<Lazy> BACKENDS = new ArrayList<>();

    static {
        BACKENDS.add(new Lazy("H2", "H2", H2Fixture::new));
        for (PlannerState state : PlannerState.values()) {
            BACKENDS.add(new Lazy(state.label(), "PostgreSQL", () -> new PostgresFixture(state)));
        }
        BACKENDS.add(new Lazy("SQL Server", "SQLServer", SqlServerFixture::new));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> BACKENDS.forEach(Lazy::close)));
    }

    @Override
    public Stream<? extends Arguments> provideArguments(ExtensionContext context) {
        return BACKENDS.stream().filter(b -> TestTier.runs(b.backend)).map(b -> Arguments.of(new Db(b)));
    }

    /** A fixture made on first use, once per JVM. */
    static final class Lazy {
        final String name;
        /** The backend, as {@link TestTier} names it. */
        final String backend;
        private final Supplier<BackendFixture> factory;
        private BackendFixture fixture;
        private boolean reported;

        Lazy(String name, String backend, Supplier<BackendFixture> factory) {
            this.name = name;
            this.backend = backend;
            this.factory = factory;
        }

        synchronized BackendFixture get() {
            if (fixture == null) {
                fixture = factory.get();
            }
            if (fixture.unavailableReason() != null && !reported) {
                reported = true;
                FIGURES.info(String.valueOf(fixture.unavailableReason()));
            }
            return fixture;
        }

        synchronized void close() {
            if (fixture != null && fixture.unavailableReason() == null) {
                fixture.close();
            }
        }
    }
}
