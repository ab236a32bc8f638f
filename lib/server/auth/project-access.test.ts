import { describe, expect, it } from "vitest";
import { db } from "../db";
import { createTestUser } from "../http/test-requests";
import { recommendedProjectSettings } from "../project-data/options-catalogue";
import { rememberingMemberships, requireProjectRole } from "./project-access";

async function projectWithAnnotator() {
  const owner = await createTestUser("RESEARCHER");
  const annotator = await createTestUser("ANNOTATOR");
  const project = await db().project.create({
    data: {
      ...recommendedProjectSettings(),
      name: "Access",
      bundleName: "b",
      n: 3,
      d: 2,
      dataPath: `projects/access-${owner.id}`,
      members: { create: [{ userId: owner.id, role: "OWNER" }, { userId: annotator.id, role: "ANNOTATOR" }] },
    },
  });
  return { projectId: project.id, owner, annotator };
}

describe("requireProjectRole", () => {
  it("answers the role of a member, 403 to a non-member or a member who is not the owner where the owner is asked, 404 for no project", async () => {
    const { projectId, owner, annotator } = await projectWithAnnotator();
    const outsider = await createTestUser("RESEARCHER");
    expect(await requireProjectRole(owner, projectId, "OWNER")).toBe("OWNER");
    expect(await requireProjectRole(annotator, projectId)).toBe("ANNOTATOR");
    await expect(requireProjectRole(annotator, projectId, "OWNER")).rejects.toMatchObject({ status: 403 });
    await expect(requireProjectRole(outsider, projectId)).rejects.toMatchObject({ status: 403 });
    await expect(requireProjectRole(owner, "no-such-project")).rejects.toMatchObject({ status: 404 });
  });

  it("looks a membership up once inside rememberingMemberships (one request), and afresh outside it", async () => {
    const { projectId, annotator } = await projectWithAnnotator();
    const removeMembership = () => db().projectMember.deleteMany({ where: { projectId, userId: annotator.id } });
    await rememberingMemberships(async () => {
      expect(await requireProjectRole(annotator, projectId)).toBe("ANNOTATOR");
      await removeMembership();
      // the route checked it, then the service asks again: the same lookup answers
      expect(await requireProjectRole(annotator, projectId)).toBe("ANNOTATOR");
      await expect(requireProjectRole(annotator, projectId, "OWNER")).rejects.toMatchObject({ status: 403 });
    });
    // the next request (another scope, or none) sees that the member was removed
    await expect(rememberingMemberships(() => requireProjectRole(annotator, projectId))).rejects.toMatchObject({ status: 403 });
    await expect(requireProjectRole(annotator, projectId)).rejects.toMatchObject({ status: 403 });
  });
});
