// The 3D view: the arm from /robot_description (urdf-loader) posed by
// /joint_states, the board's locations and pieces at their `robot=`
// positions, orbit controls. ROS is z-up; the scene turns it to three's y-up.
import * as THREE from "three";
import { OrbitControls } from "three/examples/jsm/controls/OrbitControls.js";
import URDFLoader from "urdf-loader";
import type { URDFRobot } from "urdf-loader";
import type { Layout, Square } from "./types";
import { colourOf } from "./board";

export class View3D {
  private renderer: THREE.WebGLRenderer;
  private scene = new THREE.Scene();
  private camera: THREE.PerspectiveCamera;
  private controls: OrbitControls;
  /** Everything in ROS coordinates (metres, z up). */
  private world = new THREE.Group();
  private boardGroup = new THREE.Group();
  private robot: URDFRobot | null = null;
  private urdf = "";

  constructor(private host: HTMLElement) {
    this.renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(window.devicePixelRatio);
    host.appendChild(this.renderer.domElement);
    this.scene.background = new THREE.Color(0xdfe6ea);
    this.camera = new THREE.PerspectiveCamera(45, 1, 0.01, 20);
    this.camera.position.set(0.1, 0.55, 0.6);
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.target.set(0, 0.05, -0.15);
    this.controls.update();
    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x667788, 1.6));
    const sun = new THREE.DirectionalLight(0xffffff, 1.4);
    sun.position.set(0.5, 1, 0.4);
    this.scene.add(sun);
    this.world.rotation.x = -Math.PI / 2;
    this.scene.add(this.world);
    const table = new THREE.Mesh(new THREE.PlaneGeometry(0.8, 0.6), new THREE.MeshStandardMaterial({ color: 0xc9b48f }));
    table.position.set(0, 0.15, -0.001);
    this.world.add(table);
    this.world.add(this.boardGroup);
    new ResizeObserver(() => this.resize()).observe(host);
    this.resize();
    const loop = () => {
      this.controls.update();
      this.renderer.render(this.scene, this.camera);
      requestAnimationFrame(loop);
    };
    loop();
  }

  private resize(): void {
    const w = this.host.clientWidth || 300, h = this.host.clientHeight || 300;
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
  }

  setRobot(urdf: string): void {
    if (urdf === this.urdf) return;
    this.urdf = urdf;
    if (this.robot) this.world.remove(this.robot);
    const loader = new URDFLoader();
    // Our URDFs use primitives only; meshes (if any) are not fetched.
    loader.loadMeshCb = (_path, _manager, done) => done(new THREE.Object3D());
    try {
      this.robot = loader.parse(urdf);
      this.robot.traverse((o) => {
        const m = o as THREE.Mesh;
        if (m.isMesh) m.material = new THREE.MeshStandardMaterial({ color: 0x5a6b7a, metalness: 0.3, roughness: 0.6 });
      });
      this.world.add(this.robot);
    } catch (e) {
      console.warn("robot_description:", e);
      this.robot = null;
    }
  }

  setJoints(names: string[], positions: number[]): void {
    if (!this.robot) return;
    names.forEach((n, i) => {
      if (this.robot!.joints[n]) this.robot!.setJointValue(n, positions[i]);
    });
  }

  /** The tool's position in base_link (metres), when the arm is known. */
  toolPosition(): { x: number; y: number; z: number } | null {
    const tool = this.robot?.links["tool0"];
    if (!this.robot || !tool) return null;
    this.robot.updateMatrixWorld(true);
    const p = new THREE.Vector3();
    tool.getWorldPosition(p);
    this.robot.worldToLocal(p);
    return { x: p.x, y: p.y, z: p.z };
  }

  hasRobot(): boolean { return this.robot !== null; }

  setBoard(layout: Layout, squares: Square[]): void {
    this.boardGroup.clear();
    const at = new Map(squares.filter((s) => s.element).map((s) => [s.location, s]));
    for (const loc of layout.locations) {
      if (!loc.robot) continue;
      const [x, y, z] = loc.robot;
      const mark = new THREE.Mesh(
        loc.shape === "circle" ? new THREE.CircleGeometry(0.012, 24) : new THREE.PlaneGeometry(0.05, 0.05),
        new THREE.MeshStandardMaterial({ color: loc.relevant ? 0xf7efdc : 0xe2d4b4 }),
      );
      mark.position.set(x, y, z + 0.0005);
      this.boardGroup.add(mark);
      const s = at.get(loc.name);
      if (s) {
        const piece = new THREE.Mesh(
          new THREE.CylinderGeometry(0.011, 0.011, 0.008, 24),
          new THREE.MeshStandardMaterial({ color: new THREE.Color(colourOf(layout, s.element_type, s.element_state)) }),
        );
        piece.rotation.x = Math.PI / 2;
        piece.position.set(x, y, z + 0.004);
        this.boardGroup.add(piece);
      }
    }
  }
}
