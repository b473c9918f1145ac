package org.ssbjca.console;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;

/**
 * An activation's failures as an operator wants them: its dead letters grouped by failure, searched, a body
 * downloaded, a group or a selection redelivered at a limited rate as a background job with progress and cancel. Every
 * call goes to the activation's MXBean. Reading needs {@code ssb-viewer} or {@code ssb-operator}; the download and
 * every change {@code ssb-operator} too (a body is the application's data), and the changes the header
 * {@value CsrfFilter#HEADER}. Changes are logged with the user (SSBJCA0150), downloads too (SSBJCA0282).
 */
@Path("activations/{name}/failures")
@Produces(MediaType.APPLICATION_JSON)
public class FailuresResource {

    private static final String INT = int.class.getName();
    private static final String LONG = long.class.getName();
    private static final String DOUBLE = double.class.getName();
    private static final String STRING = String.class.getName();
    /** The body of {@code POST redeliveries}. */
    static final String REDELIVERY_BODY = "{\"group\": \"<key>\" or \"ids\": [n, ...], \"perSecond\": r,"
            + " \"max\": n}, r over 0 and at most 1000";

    private final AdapterBeans beans = new AdapterBeans();

    /**
     * @param scan how many dead letters to read at most, oldest first (1 to 10000)
     * @return the groups: {@code key, exceptionClass, count, firstSeen, lastSeen, exampleId, exampleError}
     */
    @GET
    @Path("groups")
    public JsonValue groups(@PathParam("name") String name, @QueryParam("scan") @DefaultValue("10000") int scan) {
        return beans.invoke(name, "listDeadLetterGroups", new String[] {INT}, scan);
    }

    /**
     * @param text found in the error, service or message type (case ignored) or in the body (exactly)
     * @param after only dead letters with a greater id (paging)
     * @param max at most this many (1 to 1000)
     * @return the dead letters found, oldest first
     */
    @GET
    @Path("search")
    public JsonValue search(@PathParam("name") String name, @QueryParam("text") @DefaultValue("") String text,
            @QueryParam("after") @DefaultValue("0") long after, @QueryParam("max") @DefaultValue("100") int max) {
        return beans.invoke(name, "searchDeadLetters", new String[] {STRING, LONG, INT}, text, after, max);
    }

    /**
     * A dead letter's whole body as a download ({@code application/octet-stream}).
     *
     * @param id the dead letter
     * @return the body
     */
    @GET
    @Path("dead-letters/{id}/body")
    @Produces(MediaType.APPLICATION_OCTET_STREAM)
    public Response body(@PathParam("name") String name, @PathParam("id") long id,
            @Context SecurityContext security) {
        if (!security.isUserInRole(MeResource.OPERATOR)) {
            return Response.status(Response.Status.FORBIDDEN).type(MediaType.APPLICATION_JSON)
                    .entity(Json.createObjectBuilder().add("error", "exporting a body needs the role "
                            + MeResource.OPERATOR).build()).build();
        }
        byte[] body = (byte[]) beans.invokeRaw(name, "exportDeadLetterBody", new String[] {LONG}, id);
        ConsoleLog.exported(security.getUserPrincipal() == null ? null : security.getUserPrincipal().getName(),
                name, id, body.length);
        return Response.ok(body, MediaType.APPLICATION_OCTET_STREAM)
                .header("Content-Disposition", "attachment; filename=\"dead-letter-" + id + ".bin\"").build();
    }

    /**
     * Starts a throttled redelivery of a group (its oldest {@code max}) or of chosen dead letters.
     *
     * @param body {@value #REDELIVERY_BODY}
     * @return the job's progress
     */
    @POST
    @Path("redeliveries")
    @Consumes(MediaType.APPLICATION_JSON)
    public JsonValue redeliver(@PathParam("name") String name, @Body(REDELIVERY_BODY) JsonObject body) {
        if (body == null) {
            throw new BadRequestException("expected " + REDELIVERY_BODY);
        }
        double rate = rateOf(body);
        if (body.get("group") instanceof JsonString group) {
            int max = body.get("max") instanceof JsonNumber n ? n.intValue() : 10_000;
            return beans.invoke(name, "startGroupRedelivery", new String[] {STRING, INT, DOUBLE}, group.getString(),
                    max, rate);
        }
        if (body.get("ids") instanceof JsonArray ids) {
            long[] chosen = new long[ids.size()];
            for (int i = 0; i < chosen.length; i++) {
                if (!(ids.get(i) instanceof JsonNumber n) || !n.isIntegral()) {
                    throw new BadRequestException("expected " + REDELIVERY_BODY + "; ids[" + i + "] is no id");
                }
                chosen[i] = n.longValue();
            }
            return beans.invoke(name, "startRedelivery", new String[] {long[].class.getName(), DOUBLE}, chosen, rate);
        }
        throw new BadRequestException("expected " + REDELIVERY_BODY + "; neither \"group\" nor \"ids\" is given");
    }

    /** @return the running or last job's progress, or {@code null} when none was started */
    @GET
    @Path("redeliveries/current")
    public JsonValue current(@PathParam("name") String name) {
        return beans.attribute(name, "RedeliveryJob");
    }

    /** @return {@code {"cancelled": true|false}}: whether a running job was asked to stop */
    @POST
    @Path("redeliveries/current/cancel")
    public JsonObject cancel(@PathParam("name") String name) {
        return Json.createObjectBuilder().add("cancelled",
                beans.invoke(name, "cancelRedelivery", new String[0])).build();
    }

    private static double rateOf(JsonObject body) {
        return rateOf(body, REDELIVERY_BODY);
    }

    /**
     * @param body a request's body
     * @param expected what the body should be, for the refusal
     * @return its {@code perSecond}
     * @throws BadRequestException when it has none
     */
    static double rateOf(JsonObject body, String expected) {
        if (!(body.get("perSecond") instanceof JsonNumber n)) {
            throw new BadRequestException("expected " + expected + "; \"perSecond\" is missing or no number");
        }
        return n.doubleValue();
    }
}
