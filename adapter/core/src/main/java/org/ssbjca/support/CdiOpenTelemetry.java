package org.ssbjca.support;

import io.opentelemetry.api.OpenTelemetry;
import java.lang.annotation.Annotation;
import java.lang.reflect.InvocationTargetException;

/**
 * Finds the {@link OpenTelemetry} a bean's deployment has as a CDI bean: what WildFly's {@code opentelemetry}
 * subsystem gives every CDI deployment (the server offers it to no resource adapter, and sets no {@code
 * GlobalOpenTelemetry}). Looked up by reflection through the deployment's class loader, so that the adapter needs no
 * CDI API of its own: {@code CDI.current()} with that loader as the thread's context class loader (WildFly's CDI
 * provider finds the deployment's container by it), then {@code select(OpenTelemetry.class)}. Only {@link
 * OpenTelemetryTracing} uses it, so it is loaded only when OpenTelemetry's API is there.
 */
final class CdiOpenTelemetry {

    private static final AdapterLog LOG = AdapterLog.of(CdiOpenTelemetry.class);
    private static final String CDI = "jakarta.enterprise.inject.spi.CDI";
    private static final String INSTANCE = "jakarta.enterprise.inject.Instance";

    private CdiOpenTelemetry() {
    }

    /**
     * Returns the deployment's OpenTelemetry, or null when it has none: its class loader sees no CDI API, no CDI
     * container answers for it, or the container has no (single) {@code OpenTelemetry} bean. Says which
     * (SSBJCA0320 to SSBJCA0322). Restores the calling thread's context class loader.
     *
     * @param deployment the class loader of the bean's class
     * @param activation the activation's name, for the log
     */
    static OpenTelemetry find(ClassLoader deployment, String activation) {
        if (deployment == null) {
            LOG.deploymentWithoutTracing(activation, "its bean class is not known");
            return null;
        }
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(deployment);
        try {
            Class<?> cdi = Class.forName(CDI, true, deployment);
            Class<?> instanceType = Class.forName(INSTANCE, false, deployment);
            Object current = cdi.getMethod("current").invoke(null);
            Object instance = cdi.getMethod("select", Class.class, Annotation[].class)
                    .invoke(current, OpenTelemetry.class, new Annotation[0]);
            if (!(Boolean) instanceType.getMethod("isResolvable").invoke(instance)) {
                LOG.deploymentWithoutTracing(activation, "its CDI container has no OpenTelemetry bean");
                return null;
            }
            Object found = instanceType.getMethod("get").invoke(instance);
            if (found instanceof OpenTelemetry openTelemetry) {
                LOG.deploymentTracing(activation, found.getClass().getName());
                return openTelemetry;
            }
            LOG.deploymentWithoutTracing(activation, "its OpenTelemetry bean is not of the adapter's API");
            return null;
        } catch (ClassNotFoundException e) {
            LOG.deploymentWithoutTracing(activation, "its class loader sees no CDI API");
            return null;
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof IllegalStateException) {
                // CDI.current() with no container for this class loader: not a CDI deployment
                LOG.deploymentWithoutTracing(activation, "no CDI container answers for it ("
                        + e.getCause().getMessage() + ")");
            } else {
                LOG.deploymentTracingFailed(e.getCause(), activation);
            }
            return null;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            LOG.deploymentTracingFailed(e, activation);
            return null;
        } finally {
            thread.setContextClassLoader(previous);
        }
    }
}
