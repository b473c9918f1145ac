package org.ssbjca.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigValue;
import org.eclipse.microprofile.config.spi.ConfigBuilder;
import org.eclipse.microprofile.config.spi.ConfigProviderResolver;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.eclipse.microprofile.config.spi.Converter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.brokers.MicroProfileValues;
import org.ssbjca.fakes.FakeBootstrapContext;

/**
 * docs/guide/configuration.md, MicroProfile Config: the adapter reads {@code ssb.jca.url}, {@code ssb.jca.user} and
  * {@code ssb.jca.password}
 * for its default database when its {@code connectionUrl} is left at the H2 default and its {@code user} and
 * {@code password} are not set; a property that is set always wins. Over a MicroProfile Config of the test's own.
 */
class MicroProfileConfigPrecedenceTest {

    private static final String MP_URL = "jdbc:h2:mem:mp-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";

    @BeforeEach
    void aServerConfigWithTheThreeKeys() {
        ConfigProviderResolver.setInstance(new MapResolver(Map.of(MicroProfileValues.URL, MP_URL,
                MicroProfileValues.USER, "mp-user", MicroProfileValues.PASSWORD, "mp-password")));
    }

    @AfterEach
    void noServerConfig() {
        ConfigProviderResolver.setInstance(null);
    }

    @Test
    void propertiesLeftUnsetAreReadFromMicroProfileConfig() throws Exception {
        DatabaseConfig database = started(new ServiceBrokerResourceAdapter());

        assertEquals(MP_URL, database.url());
        assertEquals("mp-user", database.user());
        assertEquals("mp-password", database.password());
    }

    @Test
    void aPropertyThatIsSetAlwaysWins() throws Exception {
        String url = "jdbc:h2:mem:set-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        ServiceBrokerResourceAdapter ra = new ServiceBrokerResourceAdapter();
        ra.setConnectionUrl(url);
        ra.setUser("set-user");
        DatabaseConfig database = started(ra);

        assertEquals(url, database.url(), "a URL other than the H2 default");
        assertEquals("set-user", database.user());
        assertEquals("mp-password", database.password(), "the one left unset");
    }

    private static DatabaseConfig started(ServiceBrokerResourceAdapter ra) throws Exception {
        ra.start(new FakeBootstrapContext());
        try {
            return ra.defaultDatabase();
        } finally {
            ra.stop();
        }
    }

    /** A MicroProfile Config implementation holding one map, for every class loader. */
    private static final class MapResolver extends ConfigProviderResolver {
        private final Config config;

        MapResolver(Map<String, String> values) {
            this.config = new MapConfig(values);
        }

        @Override
        public Config getConfig() {
            return config;
        }

        @Override
        public Config getConfig(ClassLoader loader) {
            return config;
        }

        @Override
        public ConfigBuilder getBuilder() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void registerConfig(Config c, ClassLoader loader) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void releaseConfig(Config c) {
        }
    }

    private record MapConfig(Map<String, String> values) implements Config {
        @Override
        public <T> T getValue(String name, Class<T> type) {
            return getOptionalValue(name, type).orElseThrow(() -> new NoSuchElementException(name));
        }

        @Override
        public ConfigValue getConfigValue(String name) {
            throw new UnsupportedOperationException();
        }

        @Override
        public <T> Optional<T> getOptionalValue(String name, Class<T> type) {
            return Optional.ofNullable(values.get(name)).map(type::cast);
        }

        @Override
        public Iterable<String> getPropertyNames() {
            return values.keySet();
        }

        @Override
        public Iterable<ConfigSource> getConfigSources() {
            return List.of();
        }

        @Override
        public <T> Optional<Converter<T>> getConverter(Class<T> type) {
            return Optional.empty();
        }

        @Override
        public <T> T unwrap(Class<T> type) {
            throw new IllegalArgumentException(type.getName());
        }
    }
}
