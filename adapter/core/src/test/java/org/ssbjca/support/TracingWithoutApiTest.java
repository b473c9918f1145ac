package org.ssbjca.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URL;
import java.net.URLClassLoader;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessage;

/**
 * The adapter where OpenTelemetry's API is missing (a server without the {@code io.opentelemetry.api} module): its
 * classes loaded by a class loader that has the adapter, its API and JBoss Logging but no OpenTelemetry. Tracing is
 * the no-op, which records nothing, and nothing fails for want of an OpenTelemetry class.
 */
class TracingWithoutApiTest {

    @Test
    void withoutTheApiNothingIsRecordedAndNothingFails() throws Exception {
        URL[] path = {location(Tracing.class), location(BrokerMessage.class), location(org.jboss.logging.Logger.class)};
        try (URLClassLoader loader = new URLClassLoader(path, ClassLoader.getPlatformClassLoader())) {
            assertThrows(ClassNotFoundException.class, () -> loader.loadClass("io.opentelemetry.api.trace.Span"),
                    "no API in this class loader");
            Class<?> tracing = loader.loadClass(Tracing.class.getName());
            Object chosen = tracing.getMethod("get").invoke(null);
            assertEquals(Tracing.class.getName() + "$Off", chosen.getClass().getName());
            assertEquals(false, tracing.getMethod("enabled").invoke(chosen));
            assertNull(tracing.getMethod("currentContext").invoke(chosen));
            assertSame(chosen, tracing.getMethod("forDeployment", ClassLoader.class, String.class)
                    .invoke(chosen, loader, "Bean@Queue"), "no deployment lookup without the API");
        }
    }

    private static URL location(Class<?> c) {
        return c.getProtectionDomain().getCodeSource().getLocation();
    }
}
