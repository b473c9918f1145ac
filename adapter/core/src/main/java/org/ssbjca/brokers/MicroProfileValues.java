package org.ssbjca.brokers;

import java.util.Optional;

/**
 * The adapter's default database from MicroProfile Config, where the server has it: WildFly gives every deployment
 * its MicroProfile Config when the {@code microprofile-config-smallrye} subsystem is configured (it is in
 * {@code standalone-full.xml} and {@code standalone-microprofile.xml}), with the server's config sources (properties,
 * a directory of files such as mounted secrets), system properties, environment variables
 * ({@code SSB_JCA_URL}, {@code SSB_JCA_USER}, {@code SSB_JCA_PASSWORD}: MicroProfile Config's mapping of the keys) and
 * {@code META-INF/microprofile-config.properties}. Without it,
 * every value is empty.
 */
public final class MicroProfileValues {

    /** The key of the default JDBC URL, read when the adapter's {@code connectionUrl} is left at its default. */
    public static final String URL = "ssb.jca.url";
    /** The key of the default user, read when the adapter's {@code user} is not set. */
    public static final String USER = "ssb.jca.user";
    /** The key of the default password, read when the adapter's {@code password} is not set. */
    public static final String PASSWORD = "ssb.jca.password";

    private MicroProfileValues() {
    }

    /**
     * Returns the value, empty when the key has none or the server has no MicroProfile Config.
     *
     * @param key a key
     * @param loader the deployment's class loader, whose MicroProfile Config is read
     */
    public static Optional<String> value(String key, ClassLoader loader) {
        try {
            Class.forName("org.eclipse.microprofile.config.ConfigProvider", false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            return Optional.empty();
        }
        return Reader.value(key, loader);
    }

    /** Loaded only when the MicroProfile Config API is there. */
    private static final class Reader {
        static Optional<String> value(String key, ClassLoader loader) {
            try {
                return org.eclipse.microprofile.config.ConfigProvider.getConfig(loader)
                        .getOptionalValue(key, String.class).filter(v -> !v.isBlank());
            } catch (IllegalStateException | java.util.ServiceConfigurationError e) {
                return Optional.empty(); // the API without an implementation
            }
        }
    }
}
