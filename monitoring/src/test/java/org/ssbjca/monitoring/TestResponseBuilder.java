package org.ssbjca.monitoring;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;

/**
 * A plain {@link HealthCheckResponseBuilder}, where WildFly gives SmallRye Health's: install it with
 * {@link #install()} before a check builds its response.
 */
final class TestResponseBuilder extends HealthCheckResponseBuilder {

    private String name;
    private HealthCheckResponse.Status status;
    private final Map<String, Object> data = new LinkedHashMap<>();

    /** Makes {@link HealthCheckResponse#named} use this builder. */
    static void install() {
        HealthCheckResponse.setResponseProvider(TestResponseBuilder::new);
    }

    @Override
    public HealthCheckResponseBuilder name(String name) {
        this.name = name;
        return this;
    }

    @Override
    public HealthCheckResponseBuilder withData(String key, String value) {
        data.put(key, value);
        return this;
    }

    @Override
    public HealthCheckResponseBuilder withData(String key, long value) {
        data.put(key, value);
        return this;
    }

    @Override
    public HealthCheckResponseBuilder withData(String key, boolean value) {
        data.put(key, value);
        return this;
    }

    @Override
    public HealthCheckResponseBuilder up() {
        return status(true);
    }

    @Override
    public HealthCheckResponseBuilder down() {
        return status(false);
    }

    @Override
    public HealthCheckResponseBuilder status(boolean up) {
        status = up ? HealthCheckResponse.Status.UP : HealthCheckResponse.Status.DOWN;
        return this;
    }

    @Override
    public HealthCheckResponse build() {
        return new HealthCheckResponse(name, status, Optional.of(Map.copyOf(data)));
    }
}
