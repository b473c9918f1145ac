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

/**
 * The backends of the conformance suite: every {@link BackendTest} runs once per backend. Each database is started
 * once per JVM, on first use; a backend that cannot run here (SQL Server without Docker) is reported once, on one
 * line, and its runs are skipped.
 */
public final class Conformance implements ArgumentsProvider {

    /** Short fallback poll and housekeeping intervals, so that timer and lifetime tests finish quickly. */
    static final PortableOptions PORTABLE_OPTIONS = new PortableOptions(200, 100, Clock.systemUTC());

    private static final List<Lazy> BACKENDS = new ArrayList<>();

    static {
        BACKENDS.add(new Lazy("H2", H2Fixture::new));
        BACKENDS.add(new Lazy("PostgreSQL", PostgresFixture::new));
        BACKENDS.add(new Lazy("SQL Server", SqlServerFixture::new));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> BACKENDS.forEach(Lazy::close)));
    }

    @Override
    public Stream<? extends Arguments> provideArguments(ExtensionContext context) {
        return BACKENDS.stream().map(b -> Arguments.of(new Db(b)));
    }

    /** A fixture made on first use, once per JVM. */
    static final class Lazy {
        final String name;
        private final Supplier<BackendFixture> factory;
        private BackendFixture fixture;
        private boolean reported;

        Lazy(String name, Supplier<BackendFixture> factory) {
            this.name = name;
            this.factory = factory;
        }

        synchronized BackendFixture get() {
            if (fixture == null) {
                fixture = factory.get();
            }
            if (fixture.unavailableReason() != null && !reported) {
                reported = true;
                System.out.println(fixture.unavailableReason());
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
